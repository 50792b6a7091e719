package dev.mero.core.approval;

import dev.mero.core.Permission;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Remembers the actions a human approved during a session, so the very same action is not asked about
 * again, and never widens an approval to anything else.
 *
 * <pre>{@code
 * SessionApprovalMemory memory = SessionApprovalMemory.wrap(ConsoleApproval.create());
 * // first "WRITE: /ws/a.txt" asks the human; an identical later request is approved without asking
 * memory.forget();                           // end of the session: ask again
 * }</pre>
 *
 * <p>An approval is remembered only for the exact tuple of what will run (context name, permissions, action,
 * canonical real target, argument vector, the {@linkplain ApprovalRequest#resolvedTargets() resolved target}
 * of every path argument, and the {@linkplain ApprovalRequest#contentDigest() digest} of the complete new
 * content); a request that differs in any of them (another path, a parent directory, one more permission,
 * another context, one more or one changed argument, a link that now points elsewhere, other content) goes to
 * the wrapped backend. The details a human reads (a preview, a diff) are never what is compared: approving one
 * write of "WRITE: /ws/a.txt" never approves a different write of the same length and beginning. A request
 * that has details but no digest cannot be bound to its content, so it is never remembered (it is asked every
 * time). With {@link Builder#matchDetails(boolean) matchDetails(false)} an approval covers the action whatever it
 * writes, for the rest of the session. Only {@link ApprovalDecision#APPROVED} is remembered; a denial, an
 * abstention or a failure is asked again next time, and so is an approval that arrived after a
 * {@link ChainedApproval} had given up on this backend (it is discarded). At most
 * {@linkplain Builder#maxEntries(int) maxEntries} approvals are kept; beyond that, new approvals are simply
 * not remembered. Thread-safe.
 */
public final class SessionApprovalMemory implements ApprovalBackend {

    /** Default bound on remembered approvals. */
    public static final int DEFAULT_MAX_ENTRIES = 1000;

    private static final Logger LOG = LoggerFactory.getLogger(SessionApprovalMemory.class);

    private final ApprovalBackend delegate;
    private final boolean matchDetails;
    private final int maxEntries;
    private final Set<Approved> approved = ConcurrentHashMap.newKeySet();

    private SessionApprovalMemory(Builder builder) {
        if (builder.delegate == null) {
            throw new IllegalArgumentException("SessionApprovalMemory needs a backend to ask; "
                    + "call delegate(...) on the builder");
        }
        this.delegate = builder.delegate;
        this.matchDetails = builder.matchDetails;
        this.maxEntries = builder.maxEntries;
    }

    /**
     * Wraps a backend with the default settings (content compared, default bound).
     *
     * @param delegate the backend asked for anything not yet approved
     * @return the memory
     */
    public static SessionApprovalMemory wrap(ApprovalBackend delegate) {
        return builder().delegate(delegate).build();
    }

    /**
     * Starts a builder.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Approves a request identical to an earlier approved one; asks the wrapped backend otherwise and
     * remembers an approval.
     *
     * @param request what is to be approved
     * @return {@link ApprovalDecision#APPROVED} for a remembered action, else the wrapped backend's decision
     * @throws Exception whatever the wrapped backend throws
     */
    @Override
    public ApprovalDecision decide(ApprovalRequest request) throws Exception {
        Approved key = Approved.of(request, matchDetails);
        if (key == null) {
            return delegate.decide(request); // content it cannot be bound to: asked every time
        }
        if (approved.contains(key)) {
            LOG.debug("Request {} ({}) matches an approval of this session", request.id(), request.action());
            return ApprovalDecision.APPROVED;
        }
        ApprovalDecision decision = delegate.decide(request);
        if (decision == ApprovalDecision.APPROVED) {
            ApprovalCall call = ApprovalCall.current();
            if (call == null) {
                remember(key);
            } else if (!call.whenTaken(() -> remember(key))) {
                LOG.debug("Request {} ({}) was approved after the chain gave up on it; not remembered",
                        request.id(), request.action());
            }
        }
        return decision;
    }

    /** Forgets every remembered approval: the next request of each action is asked again. */
    public void forget() {
        approved.clear();
    }

    /**
     * The number of remembered approvals.
     *
     * @return the count
     */
    public int size() {
        return approved.size();
    }

    @Override
    public String toString() {
        return "SessionApprovalMemory{delegate=" + delegate + ", remembered=" + approved.size() + "}";
    }

    private void remember(Approved key) {
        synchronized (approved) {
            if (approved.size() < maxEntries) {
                approved.add(key);
            } else {
                LOG.warn("Session approval memory is full ({} approvals); not remembering {}", maxEntries,
                        key.action());
            }
        }
    }

    /**
     * The exact tuple an approval covers. {@code contentDigest} is {@code null} when content is not compared or
     * the request writes none.
     */
    private record Approved(String contextName, Set<Permission> permissions, String action, Path target,
                            List<String> argv, List<String> resolvedTargets, String contentDigest) {

        /** The key of a request, or {@code null} when its content matters but only its details describe it. */
        static Approved of(ApprovalRequest request, boolean matchContent) {
            String digest = request.contentDigest().orElse(null);
            if (matchContent && digest == null && request.details().isPresent()) {
                return null;
            }
            return new Approved(request.contextName(), request.permissions(), request.action(),
                    request.target().orElse(null), request.argv(), request.resolvedTargets(),
                    matchContent ? digest : null);
        }
    }

    /** Builds a {@link SessionApprovalMemory}; the wrapped backend is required. */
    public static final class Builder {

        private ApprovalBackend delegate;
        private boolean matchDetails = true;
        private int maxEntries = DEFAULT_MAX_ENTRIES;

        private Builder() {
        }

        /**
         * Sets the backend asked for anything not yet approved.
         *
         * @param delegate the backend
         * @return this builder
         */
        public Builder delegate(ApprovalBackend delegate) {
            this.delegate = Objects.requireNonNull(delegate, "delegate");
            return this;
        }

        /**
         * Sets whether the content must match as well (default {@code true}: an approval covers exactly the
         * content whose digest the request carried, and a request with details but no digest is never
         * remembered; {@code false}: it covers the action, whatever it writes).
         *
         * @param matchDetails whether to compare details
         * @return this builder
         */
        public Builder matchDetails(boolean matchDetails) {
            this.matchDetails = matchDetails;
            return this;
        }

        /**
         * Bounds how many approvals are remembered (default {@value SessionApprovalMemory#DEFAULT_MAX_ENTRIES}).
         *
         * @param maxEntries at least 1
         * @return this builder
         */
        public Builder maxEntries(int maxEntries) {
            if (maxEntries < 1) {
                throw new IllegalArgumentException("SessionApprovalMemory maxEntries must be at least 1, got "
                        + maxEntries);
            }
            this.maxEntries = maxEntries;
            return this;
        }

        /**
         * Builds the memory.
         *
         * @return the memory
         */
        public SessionApprovalMemory build() {
            return new SessionApprovalMemory(this);
        }
    }
}
