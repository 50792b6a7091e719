-- langchain4j-mero-postgres schema, version 8: a guarded decision's rate limit and retry budget in one round
-- trip, and counters that do not wait for the WAL flush at commit.
--
-- mero_decide takes a permit of the rate-limit bucket (as mero_rate_take does) and, only if it was taken, reserves an
-- attempt of the call (mero_retry_begin), in one transaction: the bucket's row lock, then the call's advisory
-- lock, always in that order (no other function takes both). A null p_bucket takes no permit, a null p_scope
-- reserves nothing, so the limit or the budget alone is the same call. A refused budget keeps the permit taken,
-- as the two calls one after the other did.
--
-- Rate-limit and retry-budget counts commit asynchronously (synchronous_commit off for the function's own
-- transaction: set_config(..., true) lasts until the commit, and the functions carry no SET clause for it that
-- would restore it on return; mero_commit_early, below). A database crash can lose the counts of the last
-- moments (at most three times wal_writer_delay, 600 ms by default): a few permits given back, a few failures
-- or reservations forgotten.
-- While the server runs, every instance sees every count at once (visibility does not wait for the flush), so
-- the limit and the budget hold across instances as before. Audit rows, approvals and replay claims stay durable.
-- Turns synchronous_commit off until the end of the caller's transaction, on a server whose commits wait for the
-- disk (fsync on). A server with fsync off loses recent commits on a crash anyway, and there an asynchronous
-- commit costs more than it saves: it wakes the WAL writer for every commit.
CREATE FUNCTION ${schema}.mero_commit_early() RETURNS void
    LANGUAGE plpgsql SET search_path = pg_catalog, ${schema} AS $$
BEGIN
    IF current_setting('fsync') = 'on' THEN
        PERFORM set_config('synchronous_commit', 'off', true);
    END IF;
END
$$;

CREATE FUNCTION ${schema}.mero_decide(p_bucket text, p_per_us bigint, p_permits bigint, p_burst bigint,
                                      p_hold_us bigint, p_scope text, p_operation text, p_digest text,
                                      p_lock bigint, p_window_us bigint, p_max integer, p_attempt text,
                                      p_lease_us bigint)
    RETURNS TABLE (taken boolean, wait_us numeric, available bigint, reserved boolean, failures integer,
                   running integer)
    LANGUAGE plpgsql SET search_path = pg_catalog, ${schema} AS $$
DECLARE
    v_interval numeric := p_per_us::numeric / p_permits;
    v_full_at  numeric;
    v_now      numeric;
BEGIN
    PERFORM mero_commit_early();
    taken := true;
    wait_us := 0;
    IF p_bucket IS NOT NULL THEN
        -- the permit in one UPDATE when the bucket exists, holds the caller's limit and has a permit: the state
        -- moves as mero_rate_take moves it then, on the clock read after the row lock (a concurrent update makes
        -- the statement evaluate again); every other case is mero_rate_take's
        UPDATE mero_rate_limit r
            SET full_at = GREATEST(r.full_at, EXTRACT(EPOCH FROM clock_timestamp())::numeric * 1000000) + v_interval,
                limit_used_at = EXTRACT(EPOCH FROM clock_timestamp())::numeric * 1000000
            WHERE r.bucket = p_bucket AND r.per_us = p_per_us AND r.permits = p_permits AND r.burst = p_burst
                AND GREATEST(r.full_at, EXTRACT(EPOCH FROM clock_timestamp())::numeric * 1000000)
                    - EXTRACT(EPOCH FROM clock_timestamp())::numeric * 1000000 <= v_interval * (p_burst - 1)
            RETURNING r.full_at, r.limit_used_at INTO v_full_at, v_now;
        IF FOUND THEN
            available := LEAST(p_burst, GREATEST(0, floor((v_interval * p_burst - GREATEST(0, v_full_at - v_now))
                / v_interval)))::bigint;
        ELSE
            SELECT t.taken, t.wait_us, t.available INTO taken, wait_us, available
                FROM mero_rate_take(p_bucket, p_per_us, p_permits, p_burst, p_hold_us, true) t;
        END IF;
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
    PERFORM mero_commit_early();
    PERFORM mero_retry_end(p_scope, p_operation, p_digest, p_lock, p_attempt, p_outcome, p_window_us, p_max);
END
$$;
