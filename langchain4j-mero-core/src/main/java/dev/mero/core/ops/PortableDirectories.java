package dev.mero.core.ops;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;

/**
 * Descriptor-relative directories through the foreign-function API, for platforms whose JDK has no
 * {@link SecureDirectoryStream}. Java 17 has no such API: nothing here; the multi-release jar's Java 25 version of
 * this class opens them with POSIX {@code openat}.
 */
final class PortableDirectories {

    private PortableDirectories() {
    }

    /**
     * Opens the file-system root through the foreign-function layer.
     *
     * @param root the root
     * @return {@code null} on Java 17
     * @throws IOException never on Java 17
     */
    static SecureDirectoryStream<Path> openRoot(Path root) throws IOException {
        return null;
    }
}
