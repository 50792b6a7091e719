package dev.mero.core.ops;

import dev.mero.core.message.Messages;
import dev.mero.core.guard.Operation;
import dev.mero.core.Permission;
import dev.mero.core.path.ResolvedPath;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.temporal.ChronoUnit;
import java.util.EnumSet;
import java.util.Optional;

/**
 * {@code file_info(path)}: whether a path exists, its type, size and modification time (read without following
 * a link), and what the agent may do there.
 */
final class FileInfo implements ToolOperation {

    private final SecurityContext context;

    FileInfo(SecurityContext context) {
        this.context = context;
    }

    @Override
    public String run(ToolArguments arguments) {
        return context.run(Operation.FILE_READ, arguments.string("path"), null, null, target -> {
            Optional<BasicFileAttributes> attributes;
            try {
                attributes = read(target);
            } catch (NoSuchFileException e) {
                attributes = Optional.empty();
            } catch (IOException e) {
                throw Targets.failure(context, "inspect", target, e);
            }
            context.recheck(target);
            if (attributes.isEmpty()) {
                return Messages.quote(target.virtualPath()) + " does not exist. You may: "
                        + Messages.permissions(target.effectivePermissions()) + ".";
            }
            BasicFileAttributes a = attributes.get();
            StringBuilder out = new StringBuilder(Messages.quote(target.virtualPath())).append(": ")
                    .append(Targets.kind(a));
            if (a.isRegularFile()) {
                out.append(", ").append(a.size()).append(a.size() == 1 ? " byte" : " bytes");
            }
            out.append(", modified ").append(a.lastModifiedTime().toInstant().truncatedTo(ChronoUnit.SECONDS))
                    .append(target.isMountRoot() ? " (a mount root)" : "")
                    .append(". You may: ").append(Messages.permissions(target.effectivePermissions()));
            EnumSet<Permission> approval = EnumSet.noneOf(Permission.class);
            approval.addAll(context.approvalRequired());
            approval.addAll(target.approvalRequired());
            approval.retainAll(target.effectivePermissions());
            if (!approval.isEmpty()) {
                out.append("; needs approval for ").append(Messages.permissions(approval));
            }
            return out.append('.').toString();
        });
    }

    private static Optional<BasicFileAttributes> read(ResolvedPath target) throws IOException {
        try (SecureDirectory parent = Targets.openParent(target)) {
            return parent.attributes(Targets.name(target));
        }
    }
}
