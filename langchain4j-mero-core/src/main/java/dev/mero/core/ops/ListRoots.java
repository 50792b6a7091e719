package dev.mero.core.ops;

import dev.mero.core.message.Messages;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import java.util.EnumSet;
import java.util.Set;

/**
 * {@code list_roots()}: every mount of the context with its virtual path, what the agent may do there and what
 * needs a human's approval. Touches no file.
 */
final class ListRoots implements ToolOperation {

    private final SecurityContext context;

    ListRoots(SecurityContext context) {
        this.context = context;
    }

    @Override
    public String run(ToolArguments arguments) {
        return render(context);
    }

    /**
     * The mounts as a model reads them.
     *
     * @param context the context
     * @return one line per mount
     */
    static String render(SecurityContext context) {
        if (context.paths().isEmpty()) {
            return "No directories are mounted in this context; file tools cannot be used.";
        }
        StringBuilder out = new StringBuilder("Mounts (address files as '/<mount>/<path inside it>'; the first is "
                + "also the default for relative paths):");
        for (PathEntry entry : context.paths()) {
            EnumSet<Permission> may = EnumSet.noneOf(Permission.class);
            may.addAll(entry.allowed());
            may.retainAll(context.permissions());
            may.removeAll(entry.denied());
            EnumSet<Permission> approval = EnumSet.noneOf(Permission.class);
            approval.addAll(context.approvalRequired());
            approval.addAll(entry.approvalRequired());
            approval.retainAll(may);
            out.append('\n').append(entry.mountPoint()).append(": may ").append(words(may))
                    .append(approval.isEmpty() ? "" : "; needs approval for " + words(approval));
        }
        return out.toString();
    }

    private static String words(Set<Permission> permissions) {
        return permissions.isEmpty() ? "nothing" : Messages.permissions(permissions);
    }
}
