package dev.mero.springboot;

import dev.mero.core.InvalidPolicyException;
import java.io.IOException;
import java.nio.file.Path;
import org.springframework.core.io.Resource;
import org.springframework.core.io.ResourceLoader;

/**
 * Where {@code mero.policy} points: a file path as given, or a {@code classpath:} / {@code file:} resource that is
 * a file on disk. A class path resource inside a jar is refused: the policy's relative directories resolve against
 * the file's own directory, which an entry in a jar does not have.
 */
final class PolicyLocation {

    private PolicyLocation() {
    }

    static Path resolve(String location, ResourceLoader resources) {
        if (!location.startsWith("classpath:") && !location.startsWith("file:")) {
            return Path.of(location);
        }
        Resource resource = resources.getResource(location);
        Path named = Path.of(location);
        if (!resource.exists()) {
            throw new InvalidPolicyException(named, null, "no such resource (mero.policy)", null);
        }
        if (!resource.isFile()) {
            throw new InvalidPolicyException(named, null, "is not a file on disk (" + resource.getDescription()
                    + "); a policy's relative directories resolve against its own directory: point mero.policy at "
                    + "a file path", null);
        }
        try {
            return resource.getFile().toPath();
        } catch (IOException e) {
            throw new InvalidPolicyException(named, null, "cannot be opened as a file: " + e.getMessage(), e);
        }
    }
}
