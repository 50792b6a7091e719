/**
 * Human approval of sensitive actions: an {@link dev.mero.core.approval.ApprovalBackend} decides an
 * {@link dev.mero.core.approval.ApprovalRequest}, and the {@link dev.mero.core.approval.ApprovalGate} turns
 * the decision into "go on" or a fail-safe {@link dev.mero.core.ApprovalDeniedException}.
 *
 * <p>Ready backends: {@link dev.mero.core.approval.ApprovalBackends#alwaysApprove()} and
 * {@link dev.mero.core.approval.ApprovalBackends#alwaysDeny()} for tests and CI,
 * {@link dev.mero.core.approval.ConsoleApproval} for a terminal, {@link dev.mero.core.approval.CallbackApproval}
 * and {@link dev.mero.core.approval.PendingApprovals} for approving from a web page or a chat,
 * {@link dev.mero.core.approval.SessionApprovalMemory} to stop asking twice for the very same action,
 * {@link dev.mero.core.approval.StandingApproval} for rules a person grants for a while (a caller's writes below a
 * directory for the next 30 minutes), and
 * {@link dev.mero.core.approval.ChainedApproval} to ask several backends in turn, each with a time limit.
 *
 * <p>Approval comes after every deny rule: an action a rule denies is never sent for approval.
 */
package dev.mero.core.approval;
