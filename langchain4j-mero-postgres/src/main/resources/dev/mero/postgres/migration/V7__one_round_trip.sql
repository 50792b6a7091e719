-- langchain4j-mero-postgres schema, version 7: one bucket per context whatever limit each instance has, and
-- one round trip per decision.
--
-- Rate limits as a generic cell rate algorithm: the bucket's state is one instant, full_at (microseconds
-- since the epoch), at which it is full again; a permit costs interval_us (the period over the permits) and
-- is taken when full_at, moved past now by that cost, lies at most window_us (interval_us * burst) ahead.
-- The state holds no token unit, so instances configured with different limits for one context (a rolling
-- deploy) share one row. Every caller applies the stricter limit in use: the lower rate, then the smaller
-- burst, of its own limit and the one the row holds; a held limit that no instance configured with it has used
-- for p_hold_us microseconds gives way to the caller's.
CREATE TABLE ${schema}.mero_rate_limit (
    bucket        text    PRIMARY KEY,
    full_at       numeric NOT NULL,
    per_us        bigint  NOT NULL CHECK (per_us > 0),
    permits       bigint  NOT NULL CHECK (permits > 0),
    burst         bigint  NOT NULL CHECK (burst > 0),
    limit_used_at numeric NOT NULL
);

CREATE FUNCTION ${schema}.mero_rate_take(p_bucket text, p_per_us bigint, p_permits bigint, p_burst bigint,
                                         p_hold_us bigint, p_take boolean)
    RETURNS TABLE (taken boolean, wait_us numeric, available bigint, per_us bigint, permits bigint, burst bigint)
    LANGUAGE plpgsql SET search_path = pg_catalog, ${schema} AS $$
DECLARE
    v_row      mero_rate_limit%ROWTYPE;
    v_now      numeric;
    v_interval numeric;
    v_next     numeric;
    v_used     numeric;
BEGIN
    INSERT INTO mero_rate_limit AS r (bucket, full_at, per_us, permits, burst, limit_used_at)
        VALUES (p_bucket, 0, p_per_us, p_permits, p_burst, 0)
        ON CONFLICT (bucket) DO NOTHING;
    SELECT * INTO v_row FROM mero_rate_limit r WHERE r.bucket = p_bucket FOR UPDATE;
    v_now := EXTRACT(EPOCH FROM clock_timestamp())::numeric * 1000000;  -- after the lock
    v_used := v_row.limit_used_at;
    IF p_per_us::numeric * v_row.permits > v_row.per_us::numeric * p_permits
            OR (p_per_us::numeric * v_row.permits = v_row.per_us::numeric * p_permits AND p_burst <= v_row.burst)
            OR v_row.limit_used_at < v_now - p_hold_us THEN
        v_row.per_us := p_per_us;  -- the caller's limit is the stricter one, or the held one is no longer used
        v_row.permits := p_permits;
        v_row.burst := p_burst;
        v_used := v_now;
    END IF;
    per_us := v_row.per_us;
    permits := v_row.permits;
    burst := v_row.burst;
    v_interval := v_row.per_us::numeric / v_row.permits;
    v_next := GREATEST(v_row.full_at, v_now) + v_interval;
    wait_us := GREATEST(0, v_next - v_now - v_interval * v_row.burst);
    taken := p_take AND wait_us = 0;
    IF taken THEN
        v_row.full_at := v_next;
    END IF;
    available := LEAST(v_row.burst, GREATEST(0,
        floor((v_interval * v_row.burst - GREATEST(0, v_row.full_at - v_now)) / v_interval)))::bigint;
    UPDATE mero_rate_limit r SET full_at = v_row.full_at, per_us = v_row.per_us, permits = v_row.permits,
            burst = v_row.burst, limit_used_at = v_used
        WHERE r.bucket = p_bucket;
    RETURN NEXT;
END
$$;

-- The retry budget's reservation of a running attempt in one call (it was five statements): under the
-- transaction-level advisory lock on the call (p_lock, the key the library computes), drops reservations
-- whose lease passed, reads the failures within the window and the running attempts, and reserves one more
-- when they leave room. reserved is false when the budget is spent (failures) or held by running attempts.
CREATE FUNCTION ${schema}.mero_retry_begin(p_scope text, p_operation text, p_digest text, p_lock bigint,
                                           p_window_us bigint, p_max integer, p_attempt text, p_lease_us bigint)
    RETURNS TABLE (reserved boolean, failures integer, running integer)
    LANGUAGE plpgsql SET search_path = pg_catalog, ${schema} AS $$
DECLARE
    v_now timestamptz;
BEGIN
    PERFORM pg_advisory_xact_lock(p_lock);
    v_now := clock_timestamp();
    DELETE FROM mero_retry_attempt a WHERE a.scope = p_scope AND a.operation = p_operation
        AND a.digest = p_digest AND a.lease_until < v_now;
    SELECT coalesce(max(b.failures), 0) INTO failures FROM mero_retry_budget b
        WHERE b.scope = p_scope AND b.operation = p_operation AND b.digest = p_digest
        AND b.last_failure > v_now - make_interval(secs => p_window_us / 1000000.0);
    SELECT count(*) INTO running FROM mero_retry_attempt a
        WHERE a.scope = p_scope AND a.operation = p_operation AND a.digest = p_digest;
    reserved := failures + running < p_max;
    IF reserved THEN
        INSERT INTO mero_retry_attempt (scope, operation, digest, attempt, lease_until)
            VALUES (p_scope, p_operation, p_digest, p_attempt, v_now + make_interval(secs => p_lease_us / 1000000.0));
    END IF;
    RETURN NEXT;
END
$$;

-- The end of a reserved attempt in one call, under the same lock: counts a failure (restarting the count
-- when the last one is older than the window), forgets the failures after a success, and frees the
-- reservation. p_outcome is FAILED, SUCCEEDED or anything else (neither: only the reservation is freed).
CREATE FUNCTION ${schema}.mero_retry_end(p_scope text, p_operation text, p_digest text, p_lock bigint,
                                         p_attempt text, p_outcome text, p_window_us bigint, p_max integer)
    RETURNS void
    LANGUAGE plpgsql SET search_path = pg_catalog, ${schema} AS $$
DECLARE
    v_now timestamptz;
BEGIN
    PERFORM pg_advisory_xact_lock(p_lock);
    v_now := clock_timestamp();
    IF p_outcome = 'FAILED' THEN
        INSERT INTO mero_retry_budget AS r (scope, operation, digest, failures, last_failure)
            VALUES (p_scope, p_operation, p_digest, 1, v_now)
            ON CONFLICT (scope, operation, digest) DO UPDATE SET
                failures = CASE WHEN r.last_failure <= v_now - make_interval(secs => p_window_us / 1000000.0)
                                THEN 1 ELSE LEAST(r.failures + 1, p_max) END,
                last_failure = v_now;
    ELSIF p_outcome = 'SUCCEEDED' THEN
        DELETE FROM mero_retry_budget b
            WHERE b.scope = p_scope AND b.operation = p_operation AND b.digest = p_digest;
    END IF;
    DELETE FROM mero_retry_attempt a WHERE a.scope = p_scope AND a.operation = p_operation
        AND a.digest = p_digest AND a.attempt = p_attempt;
END
$$;

-- A replayed call's claim in one call: inserts the claim, or takes over one whose lease passed without a
-- result; true when this caller owns the call now.
CREATE FUNCTION ${schema}.mero_replay_take(p_scope text, p_call_id text, p_lease_us bigint)
    RETURNS boolean
    LANGUAGE plpgsql SET search_path = pg_catalog, ${schema} AS $$
DECLARE
    v_now timestamptz := clock_timestamp();
    v_rows integer;
BEGIN
    INSERT INTO mero_replay AS r (scope, call_id, lease_until)
        VALUES (p_scope, p_call_id, v_now + make_interval(secs => p_lease_us / 1000000.0))
        ON CONFLICT (scope, call_id) DO UPDATE SET claimed_at = v_now, lease_until = excluded.lease_until
        WHERE r.result IS NULL AND r.lease_until < v_now;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    RETURN v_rows = 1;
END
$$;

-- A replayed call's result, written once by its owner.
CREATE FUNCTION ${schema}.mero_replay_complete(p_scope text, p_call_id text, p_result text)
    RETURNS integer
    LANGUAGE plpgsql SET search_path = pg_catalog, ${schema} AS $$
DECLARE
    v_rows integer;
BEGIN
    UPDATE mero_replay r SET result = p_result, completed_at = clock_timestamp()
        WHERE r.scope = p_scope AND r.call_id = p_call_id AND r.result IS NULL;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    RETURN v_rows;
END
$$;

-- The guard's errors name the request as a JSON string (control characters escaped), never its raw id: the
-- message reaches the writer's client and the store's log.
CREATE OR REPLACE FUNCTION ${schema}.mero_approval_guard() RETURNS trigger LANGUAGE plpgsql
    SET search_path = pg_catalog, ${schema} AS $$
BEGIN
    IF OLD.decision IS NOT NULL AND NEW.decision IS DISTINCT FROM OLD.decision THEN
        RAISE EXCEPTION 'approval request % was already decided (%)', to_json(OLD.id), OLD.decision
            USING ERRCODE = 'check_violation';
    END IF;
    IF OLD.decision IS NULL AND NEW.decision IN ('APPROVED', 'DENIED') AND clock_timestamp() > OLD.expires_at THEN
        RAISE EXCEPTION 'approval request % expired at %', to_json(OLD.id), OLD.expires_at
            USING ERRCODE = 'check_violation';
    END IF;
    IF OLD.decision IS NULL AND NEW.decision IS NOT NULL THEN
        NEW.decided_at := clock_timestamp();
    END IF;
    RETURN NEW;
END
$$;
