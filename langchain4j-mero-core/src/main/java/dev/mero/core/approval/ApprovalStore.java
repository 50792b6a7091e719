package dev.mero.core.approval;

import java.util.List;
import java.util.Optional;

/**
 * An {@link ApprovalBackend} that keeps the requests waiting for a decision where an application (a web
 * page with Approve and Deny buttons, a chat bot) can list and decide them by id. {@link PendingApprovals}
 * keeps them in this JVM's memory; the {@code langchain4j-mero-postgres} module keeps them in a table, so
 * that a request made on one application instance can be decided from any other.
 *
 * <p>Every implementation records exactly one outcome per request: the first {@link #complete decision}
 * wins, a later one returns {@code false}, and a request that timed out can no longer be decided. A store
 * that cannot reach its storage fails: {@link #decide(ApprovalRequest)} throws (so the gate refuses the
 * action) and {@link #complete(String, ApprovalDecision)} throws
 * {@link dev.mero.core.PolicyStoreUnavailableException}. Implementations must be thread-safe.
 */
public interface ApprovalStore extends ApprovalBackend {

    /**
     * The requests waiting for a decision, oldest first.
     *
     * @return a snapshot
     */
    List<ApprovalRequest> pending();

    /**
     * One waiting request.
     *
     * @param id the request id
     * @return the request, absent if no request with this id is waiting
     */
    Optional<ApprovalRequest> pending(String id);

    /**
     * Decides a waiting request.
     *
     * @param id       the request id
     * @param decision the decision
     * @return {@code true} if the request was waiting and now has this decision; {@code false} if it was
     *         unknown, already decided or timed out
     */
    boolean complete(String id, ApprovalDecision decision);
}
