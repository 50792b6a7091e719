package dev.mero.core.command;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.path.ResolvedPath;
import dev.mero.core.SecurityContext;

import java.nio.file.Path;
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

    /** {@link SecurityContext#checkPathAccess(String, Permission...)}; with no permissions, a coverage check. */
    ResolvedPath check(String path, Permission... needed);

    /** {@link SecurityContext#virtualPathOf(Path)}. */
    Optional<String> virtualPathOf(Path realPath);

    /** The view of a context. */
    static MountedPaths of(SecurityContext context) {
        return new MountedPaths() {
            @Override
            public String contextName() {
                return context.name();
            }

            @Override
            public List<PathEntry> entries() {
                return context.paths();
            }

            @Override
            public ResolvedPath check(String path, Permission... needed) {
                return needed.length == 0 ? context.checkPath(path) : context.checkPathAccess(path, needed);
            }

            @Override
            public Optional<String> virtualPathOf(Path realPath) {
                return context.virtualPathOf(realPath);
            }
        };
    }
}
