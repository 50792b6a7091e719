package dev.mero.core.approval;

/**
 * Decides whether an action that needs approval may run: a human on a terminal, a web page, a chat, a
 * policy service, or a fixed answer in tests.
 *
 * <pre>{@code
 * ApprovalBackend onlyReads = request -> request.permissions().equals(Set.of(Permission.READ))
 *         ? ApprovalDecision.APPROVED : ApprovalDecision.ABSTAIN;
 * }</pre>
 *
 * <p>A backend may block (a human takes time) and should then react to an interrupt by throwing
 * {@link InterruptedException}; {@link ChainedApproval} bounds how long it may take. Whatever goes wrong
 * fails safe: the {@link ApprovalGate} treats an exception, an interrupt, {@code null} or
 * {@link ApprovalDecision#ABSTAIN} as "not approved". Implementations must be thread-safe, and when run by
 * a {@link ChainedApproval} they run on a thread of their own, so thread-local state of the caller is not
 * visible to them.
 */
@FunctionalInterface
public interface ApprovalBackend {

    /**
     * Decides a request.
     *
     * @param request what is to be approved
     * @return the decision; {@code null} counts as {@link ApprovalDecision#ABSTAIN}
     * @throws Exception if no decision could be taken (counts as "not approved")
     */
    ApprovalDecision decide(ApprovalRequest request) throws Exception;
}
