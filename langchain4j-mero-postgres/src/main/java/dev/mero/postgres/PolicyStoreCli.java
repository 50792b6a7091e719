package dev.mero.postgres;

import dev.mero.core.MeroToolsException;
import dev.mero.core.guard.Operation;
import dev.mero.core.SecurityContext;
import dev.mero.core.policy.SecurityPolicy;
import dev.mero.core.approval.ApprovalBackend;
import dev.mero.core.approval.ApprovalDecision;
import dev.mero.core.approval.ApprovalRequest;
import dev.mero.core.approval.ApprovalStore;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A small command line over a policy file whose {@code store:} section names the shared database: act as
 * one application instance (guarded actions under the shared rate limit and approvals), or as an operator
 * (list pending approvals, approve or deny one). Run two of them against one database to see the state
 * shared; docs/several-instances.md shows how.
 *
 * <pre>
 * guard   &lt;policy&gt; &lt;read|write|delete|list&gt; &lt;virtual path&gt; [times]
 * pending &lt;policy&gt; [&lt;policy&gt;...]
 * approve &lt;policy&gt; &lt;request id&gt;
 * deny    &lt;policy&gt; &lt;request id&gt;
 * </pre>
 *
 * <p>An operator works within the approval queue of the policy's context: {@code pending} lists that
 * context's requests only and {@code approve}/{@code deny} decide only those; to look at several tenants,
 * name each one's policy explicitly ({@code pending a.yaml b.yaml}).
 *
 * <p>The password is read from the environment variable the policy names. Exit status: 0 when the command
 * did what it was asked (for {@code guard}: it ran, whatever was decided), 1 when an approval could not be
 * recorded, 2 for a usage error.
 */
public final class PolicyStoreCli {

    private static final Map<String, Operation> OPERATIONS = Map.of(
            "read", Operation.FILE_READ,
            "write", Operation.FILE_WRITE,
            "delete", Operation.FILE_DELETE,
            "list", Operation.DIRECTORY_LIST);

    private PolicyStoreCli() {
    }

    /**
     * Runs one command and exits with its status.
     *
     * @param args the command and its arguments
     */
    public static void main(String[] args) {
        int status = run(List.of(args), System.out);
        System.out.flush();
        System.exit(status);
    }

    /**
     * Runs one command.
     *
     * @param args the command and its arguments
     * @param out  where the results go
     * @return the exit status
     */
    static int run(List<String> args, PrintStream out) {
        if (args.size() < 2) {
            return usage(out);
        }
        SecurityContext context = SecurityPolicy.load(Path.of(args.get(1)));
        return switch (args.get(0)) {
            case "guard" -> args.size() >= 4 && OPERATIONS.containsKey(args.get(2))
                    ? guard(context, OPERATIONS.get(args.get(2)), args.get(3),
                    args.size() > 4 ? Integer.parseInt(args.get(4)) : 1, out)
                    : usage(out);
            case "pending" -> {
                list(approvals(context), out);
                for (String other : args.subList(2, args.size())) {
                    list(approvals(SecurityPolicy.load(Path.of(other))), out);
                }
                yield 0;
            }
            case "approve", "deny" -> {
                if (args.size() < 3) {
                    yield usage(out);
                }
                ApprovalDecision decision = args.get(0).equals("approve") ? ApprovalDecision.APPROVED
                        : ApprovalDecision.DENIED;
                boolean recorded = approvals(context).complete(args.get(2), decision);
                out.println(recorded ? decision.name().toLowerCase(java.util.Locale.ROOT)
                        : "not pending (unknown, already decided or timed out)");
                yield recorded ? 0 : 1;
            }
            default -> usage(out);
        };
    }

    private static int guard(SecurityContext context, Operation operation, String path, int times, PrintStream out) {
        int allowed = 0;
        for (int i = 0; i < times; i++) {
            try {
                context.guard(operation, path);
                allowed++;
                out.println("allowed");
            } catch (MeroToolsException refused) {
                out.println(refused.toModelText());
            }
        }
        out.println("allowed " + allowed + " of " + times);
        return 0;
    }

    private static void list(ApprovalStore store, PrintStream out) {
        for (ApprovalRequest request : store.pending()) {
            out.println(request.id() + "\t" + request.contextName() + "\t" + request.action() + "\t"
                    + request.requestedAt());
        }
    }

    private static ApprovalStore approvals(SecurityContext context) {
        ApprovalBackend backend = context.approval().orElse(null);
        if (backend instanceof ApprovalStore store) {
            return store;
        }
        throw new IllegalArgumentException("The policy's approval backend is not a store: set approval.backend: store");
    }

    private static int usage(PrintStream out) {
        out.println("usage: guard <policy> <read|write|delete|list> <virtual path> [times]");
        out.println("       pending <policy> [<policy>...]");
        out.println("       approve|deny <policy> <request id>");
        return 2;
    }
}
