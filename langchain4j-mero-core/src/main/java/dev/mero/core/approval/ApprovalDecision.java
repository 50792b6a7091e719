package dev.mero.core.approval;

/** What an {@link ApprovalBackend} decided about an {@link ApprovalRequest}. */
public enum ApprovalDecision {
    /** The action may run, exactly as requested. */
    APPROVED,
    /** The action must not run; final, even inside a {@link ChainedApproval}. */
    DENIED,
    /** This backend does not decide; a {@link ChainedApproval} asks the next one, a lone backend denies. */
    ABSTAIN
}
