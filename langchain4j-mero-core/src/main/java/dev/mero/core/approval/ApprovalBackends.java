package dev.mero.core.approval;

/**
 * Backends with a fixed answer, for tests, CI and as the last link of a {@link ChainedApproval}.
 *
 * <pre>{@code
 * ApprovalBackend ci = ApprovalBackends.alwaysDeny();            // nothing sensitive runs unattended
 * ApprovalBackend chain = ChainedApproval.of(Duration.ofMinutes(1),
 *         ConsoleApproval.create(), ApprovalBackends.alwaysDeny());  // deny instead of timing out
 * }</pre>
 */
public final class ApprovalBackends {

    private ApprovalBackends() {
    }

    /**
     * A backend that approves every request. Use it only in tests, or where nothing that needs approval
     * can do harm.
     *
     * @return the backend
     */
    public static ApprovalBackend alwaysApprove() {
        return Fixed.ALWAYS_APPROVE;
    }

    /**
     * A backend that denies every request: a final "no", also inside a chain.
     *
     * @return the backend
     */
    public static ApprovalBackend alwaysDeny() {
        return Fixed.ALWAYS_DENY;
    }

    /**
     * A backend that never decides, so that a chain moves on (or a lone gate refuses).
     *
     * @return the backend
     */
    public static ApprovalBackend alwaysAbstain() {
        return Fixed.ALWAYS_ABSTAIN;
    }

    /** The fixed answers; an enum so each is a readable, serialization-safe singleton. */
    private enum Fixed implements ApprovalBackend {
        ALWAYS_APPROVE(ApprovalDecision.APPROVED),
        ALWAYS_DENY(ApprovalDecision.DENIED),
        ALWAYS_ABSTAIN(ApprovalDecision.ABSTAIN);

        private final ApprovalDecision decision;

        Fixed(ApprovalDecision decision) {
            this.decision = decision;
        }

        @Override
        public ApprovalDecision decide(ApprovalRequest request) {
            return decision;
        }

        @Override
        public String toString() {
            return "ApprovalBackends." + (this == ALWAYS_APPROVE ? "alwaysApprove()"
                    : this == ALWAYS_DENY ? "alwaysDeny()" : "alwaysAbstain()");
        }
    }
}
