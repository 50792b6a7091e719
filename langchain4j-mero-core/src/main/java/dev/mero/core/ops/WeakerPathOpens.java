package dev.mero.core.ops;

import dev.mero.core.SecurityContext;
import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditEventType;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * The opt-in weaker mode for platforms without {@link java.nio.file.SecureDirectoryStream} and without the
 * foreign-function layer ({@link SecurityContext.Builder#weakerPathOpens(boolean)}): while an operation of a
 * context that turned it on runs, {@link DirectoryAccess} may open directories by path ({@link PathDirectoryStream})
 * instead of refusing. The permission is the calling thread's, for the one operation, so a context that did not
 * opt in never gets it from one that did; the first such open of an operation is recorded in the context's audit.
 */
final class WeakerPathOpens {

    /** What the audit says decided: recorded once per operation that took the weaker path. */
    static final String AUDIT_REASON = "weaker path opens: no SecureDirectoryStream on this platform; directories "
            + "opened by path, only the last name of each open is protected against a link";

    private static final ThreadLocal<Permit> PERMIT = new ThreadLocal<>();

    private WeakerPathOpens() {
    }

    /**
     * Runs an operation of a context; if the context turned the weaker mode on, lets it open by path meanwhile.
     *
     * @param context   the operation's context
     * @param operation the operation
     * @param <T>       its result
     * @return its result
     */
    static <T> T during(SecurityContext context, Supplier<T> operation) {
        if (!context.weakerPathOpens() || PERMIT.get() != null) {
            return operation.get();
        }
        PERMIT.set(new Permit(context));
        try {
            return operation.get();
        } finally {
            PERMIT.remove();
        }
    }

    /**
     * Whether the running operation may open a directory by path, recording in its audit (once) that it does.
     *
     * @param directory the directory about to be opened by path, for the audit
     * @return whether the weaker mode is on for this operation
     */
    static boolean permit(Path directory) {
        Permit permit = PERMIT.get();
        if (permit == null) {
            return false;
        }
        if (!permit.recorded) {
            permit.recorded = true;
            SecurityContext context = permit.context;
            context.auditLog().record(AuditEvent.builder().type(AuditEventType.ALLOWED).contextName(context.name())
                    .action("OPEN BY PATH").subject(directory.toString()).reason(AUDIT_REASON).build());
        }
        return true;
    }

    /** One operation's permission and whether the audit has it yet. */
    private static final class Permit {
        final SecurityContext context;
        boolean recorded;

        Permit(SecurityContext context) {
            this.context = context;
        }
    }
}
