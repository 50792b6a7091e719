package dev.mero.core.command;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.path.PathResolver;
import dev.mero.core.path.ResolvedPath;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;

/**
 * What the path-argument rule needs from a context, and nothing more: its name, its entries, the path check
 * and the virtual name of a host path. {@link PathArguments} depends on this, not on the facade.
 */
interface MountedPaths {

    /** The context's name, for messages. */
    String contextName();

    /** The context's entries, the default one first. */
    List<PathEntry> entries();

    /** {@link PathResolver#resolve(String, java.util.Set)}; with no permissions, a coverage check. */
    ResolvedPath check(String path, Permission... needed);

    /** {@link PathResolver#virtualPath(Path)}. */
    Optional<String> virtualPathOf(Path realPath);

    /** The view of a context's paths. */
    static MountedPaths of(PathResolver resolver) {
        return new MountedPaths() {
            @Override
            public String contextName() {
                return resolver.contextName();
            }

            @Override
            public List<PathEntry> entries() {
                return resolver.entries();
            }

            @Override
            public ResolvedPath check(String path, Permission... needed) {
                EnumSet<Permission> permissions = EnumSet.noneOf(Permission.class);
                permissions.addAll(Arrays.asList(needed));
                return resolver.resolve(path, permissions);
            }

            @Override
            public Optional<String> virtualPathOf(Path realPath) {
                return resolver.virtualPath(realPath);
            }
        };
    }
}
