-- langchain4j-mero-postgres schema, version 8: a guarded decision's rate limit and retry budget in one round
-- trip, and counters that do not wait for the WAL flush at commit.
--
-- mero_decide takes a permit of the rate-limit bucket (mero_rate_take) and, only if it was taken, reserves an
-- attempt of the call (mero_retry_begin), in one transaction: the bucket's row lock, then the call's advisory
-- lock, always in that order (no other function takes both). A null p_bucket takes no permit, a null p_scope
-- reserves nothing, so the limit or the budget alone is the same call. A refused budget keeps the permit taken,
-- as the two calls one after the other did.
--
-- Rate-limit and retry-budget counts commit asynchronously (synchronous_commit off for the function's own
-- transaction: set_config(..., true) lasts until the commit, and the functions carry no SET clause for it that
-- would restore it on return). A database crash can lose the counts of the last moments (at most three times
-- wal_writer_delay, 600 ms by default): a few permits given back, a few failures or reservations forgotten.
-- While the server runs, every instance sees every count at once (visibility does not wait for the flush), so
-- the limit and the budget hold across instances as before. Audit rows, approvals and replay claims stay durable.
CREATE FUNCTION ${schema}.mero_decide(p_bucket text, p_per_us bigint, p_permits bigint, p_burst bigint,
                                      p_hold_us bigint, p_scope text, p_operation text, p_digest text,
                                      p_lock bigint, p_window_us bigint, p_max integer, p_attempt text,
                                      p_lease_us bigint)
    RETURNS TABLE (taken boolean, wait_us numeric, available bigint, reserved boolean, failures integer,
                   running integer)
    LANGUAGE plpgsql SET search_path = pg_catalog, ${schema} AS $$
BEGIN
    PERFORM set_config('synchronous_commit', 'off', true);
    taken := true;
    wait_us := 0;
    IF p_bucket IS NOT NULL THEN
        SELECT r.taken, r.wait_us, r.available INTO taken, wait_us, available
            FROM mero_rate_take(p_bucket, p_per_us, p_permits, p_burst, p_hold_us, true) r;
    END IF;
    IF taken AND p_scope IS NOT NULL THEN
        SELECT b.reserved, b.failures, b.running INTO reserved, failures, running
            FROM mero_retry_begin(p_scope, p_operation, p_digest, p_lock, p_window_us, p_max, p_attempt, p_lease_us) b;
    END IF;
    RETURN NEXT;
END
$$;

-- The end of a reserved attempt (mero_retry_end of version 7), committed asynchronously like the other counts.
CREATE FUNCTION ${schema}.mero_retry_finish(p_scope text, p_operation text, p_digest text, p_lock bigint,
                                            p_attempt text, p_outcome text, p_window_us bigint, p_max integer)
    RETURNS void
    LANGUAGE plpgsql SET search_path = pg_catalog, ${schema} AS $$
BEGIN
    PERFORM set_config('synchronous_commit', 'off', true);
    PERFORM mero_retry_end(p_scope, p_operation, p_digest, p_lock, p_attempt, p_outcome, p_window_us, p_max);
END
$$;
