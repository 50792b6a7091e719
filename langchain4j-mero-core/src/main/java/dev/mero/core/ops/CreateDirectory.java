package dev.mero.core.ops;

import dev.mero.core.message.Messages;
import dev.mero.core.guard.Operation;
import dev.mero.core.path.ResolvedPath;
import dev.mero.core.SecurityContext;

/**
 * {@code create_directory(path)}: creates a directory and its missing parents, one level at a time, each
 * guarded and verified ({@link Directories}). Idempotent: an existing directory is reported, not an error.
 */
final class CreateDirectory implements ToolOperation {

    private final SecurityContext context;

    CreateDirectory(SecurityContext context) {
        this.context = context;
    }

    @Override
    public String run(ToolArguments arguments) {
        return context.run(Operation.DIRECTORY_CREATE, arguments.string("path"), null, null, target -> {
            int created = target.isMountRoot() ? 0 : Directories.ensure(context, target.realPath(), target);
            context.recheck(target);
            if (created == 0) {
                return Messages.quote(target.virtualPath()) + " already exists; nothing was created.";
            }
            return "Created " + Messages.quote(target.virtualPath())
                    + (created > 1 ? " (and " + (created - 1) + " missing parent director"
                    + (created == 2 ? "y" : "ies") + ")" : "") + ".";
        });
    }
}
