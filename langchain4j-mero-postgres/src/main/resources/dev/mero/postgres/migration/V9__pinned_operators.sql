-- langchain4j-mero-postgres schema, version 9: functions that resolve every name in pg_catalog alone, and a
-- guarded decision's permit without a function call of its own.
--
-- Until version 8 each function ran with search_path = pg_catalog, <store schema>. Built-ins come first there,
-- but only for the same argument types: an operator another role created in the store's schema (where it may
-- create, as PUBLIC could before PostgreSQL 15) with argument types no built-in has exactly, such as
-- /(numeric, bigint) or *(numeric, integer), was picked over the built-in that needs a cast: numeric / bigint in
-- mero_rate_take, numeric * integer in mero_decide. The functions now run with search_path = pg_catalog, pg_temp
-- (pg_temp last: a temporary table cannot stand in for the store's) and name the store's tables and functions
-- with their schema, so no name in them resolves to an object the store did not create.
--
-- mero_decide and mero_retry_finish turn synchronous_commit off themselves instead of calling
-- mero_commit_early (one PL/pgSQL call fewer per decision; mero_commit_early stays, on the new path).
-- A permit the bucket has is taken by the library with mero_decide's own UPDATE, sent as one statement whose
-- names are all qualified (schema-qualified table, OPERATOR(pg_catalog.*)), and mero_decide only when that
-- UPDATE finds no row: the function call with its pinned search_path cost about as much as the write itself.
-- The bodies are those of versions 7 and 8 otherwise.

CREATE OR REPLACE FUNCTION ${schema}.mero_rate_take(p_bucket text, p_per_us bigint, p_permits bigint, p_burst bigint,
                                         p_hold_us bigint, p_take boolean)
    RETURNS TABLE (taken boolean, wait_us numeric, available bigint, per_us bigint, permits bigint, burst bigint)
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    v_row      ${schema}.mero_rate_limit%ROWTYPE;
    v_now      numeric;
    v_interval numeric;
    v_next     numeric;
    v_used     numeric;
BEGIN
    INSERT INTO ${schema}.mero_rate_limit AS r (bucket, full_at, per_us, permits, burst, limit_used_at)
        VALUES (p_bucket, 0, p_per_us, p_permits, p_burst, 0)
        ON CONFLICT (bucket) DO NOTHING;
    SELECT * INTO v_row FROM ${schema}.mero_rate_limit r WHERE r.bucket = p_bucket FOR UPDATE;
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
    UPDATE ${schema}.mero_rate_limit r SET full_at = v_row.full_at, per_us = v_row.per_us, permits = v_row.permits,
            burst = v_row.burst, limit_used_at = v_used
        WHERE r.bucket = p_bucket;
    RETURN NEXT;
END
$$;

CREATE OR REPLACE FUNCTION ${schema}.mero_retry_begin(p_scope text, p_operation text, p_digest text, p_lock bigint,
                                           p_window_us bigint, p_max integer, p_attempt text, p_lease_us bigint)
    RETURNS TABLE (reserved boolean, failures integer, running integer)
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    v_now timestamptz;
BEGIN
    PERFORM pg_advisory_xact_lock(p_lock);
    v_now := clock_timestamp();
    DELETE FROM ${schema}.mero_retry_attempt a WHERE a.scope = p_scope AND a.operation = p_operation
        AND a.digest = p_digest AND a.lease_until < v_now;
    SELECT coalesce(max(b.failures), 0) INTO failures FROM ${schema}.mero_retry_budget b
        WHERE b.scope = p_scope AND b.operation = p_operation AND b.digest = p_digest
        AND b.last_failure > v_now - make_interval(secs => p_window_us / 1000000.0);
    SELECT count(*) INTO running FROM ${schema}.mero_retry_attempt a
        WHERE a.scope = p_scope AND a.operation = p_operation AND a.digest = p_digest;
    reserved := failures + running < p_max;
    IF reserved THEN
        INSERT INTO ${schema}.mero_retry_attempt (scope, operation, digest, attempt, lease_until)
            VALUES (p_scope, p_operation, p_digest, p_attempt, v_now + make_interval(secs => p_lease_us / 1000000.0));
    END IF;
    RETURN NEXT;
END
$$;

CREATE OR REPLACE FUNCTION ${schema}.mero_retry_end(p_scope text, p_operation text, p_digest text, p_lock bigint,
                                         p_attempt text, p_outcome text, p_window_us bigint, p_max integer)
    RETURNS void
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    v_now timestamptz;
BEGIN
    PERFORM pg_advisory_xact_lock(p_lock);
    v_now := clock_timestamp();
    IF p_outcome = 'FAILED' THEN
        INSERT INTO ${schema}.mero_retry_budget AS r (scope, operation, digest, failures, last_failure)
            VALUES (p_scope, p_operation, p_digest, 1, v_now)
            ON CONFLICT (scope, operation, digest) DO UPDATE SET
                failures = CASE WHEN r.last_failure <= v_now - make_interval(secs => p_window_us / 1000000.0)
                                THEN 1 ELSE LEAST(r.failures + 1, p_max) END,
                last_failure = v_now;
    ELSIF p_outcome = 'SUCCEEDED' THEN
        DELETE FROM ${schema}.mero_retry_budget b
            WHERE b.scope = p_scope AND b.operation = p_operation AND b.digest = p_digest;
    END IF;
    DELETE FROM ${schema}.mero_retry_attempt a WHERE a.scope = p_scope AND a.operation = p_operation
        AND a.digest = p_digest AND a.attempt = p_attempt;
END
$$;

CREATE OR REPLACE FUNCTION ${schema}.mero_replay_take(p_scope text, p_call_id text, p_lease_us bigint)
    RETURNS boolean
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    v_now timestamptz := clock_timestamp();
    v_rows integer;
BEGIN
    INSERT INTO ${schema}.mero_replay AS r (scope, call_id, lease_until)
        VALUES (p_scope, p_call_id, v_now + make_interval(secs => p_lease_us / 1000000.0))
        ON CONFLICT (scope, call_id) DO UPDATE SET claimed_at = v_now, lease_until = excluded.lease_until
        WHERE r.result IS NULL AND r.lease_until < v_now;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    RETURN v_rows = 1;
END
$$;

CREATE OR REPLACE FUNCTION ${schema}.mero_replay_complete(p_scope text, p_call_id text, p_result text)
    RETURNS integer
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    v_rows integer;
BEGIN
    UPDATE ${schema}.mero_replay r SET result = p_result, completed_at = clock_timestamp()
        WHERE r.scope = p_scope AND r.call_id = p_call_id AND r.result IS NULL;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    RETURN v_rows;
END
$$;

CREATE OR REPLACE FUNCTION ${schema}.mero_decide(p_bucket text, p_per_us bigint, p_permits bigint, p_burst bigint,
                                      p_hold_us bigint, p_scope text, p_operation text, p_digest text,
                                      p_lock bigint, p_window_us bigint, p_max integer, p_attempt text,
                                      p_lease_us bigint)
    RETURNS TABLE (taken boolean, wait_us numeric, available bigint, reserved boolean, failures integer,
                   running integer)
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    v_interval numeric := p_per_us::numeric / p_permits;
    v_full_at  numeric;
    v_now      numeric;
    v_async    text;
BEGIN
    IF current_setting('fsync') = 'on' THEN  -- mero_commit_early, without a call of its own
        v_async := set_config('synchronous_commit', 'off', true);
    END IF;
    taken := true;
    wait_us := 0;
    IF p_bucket IS NOT NULL THEN
        -- the permit in one UPDATE when the bucket exists, holds the caller's limit and has a permit: the state
        -- moves as mero_rate_take moves it then, on the clock read after the row lock (a concurrent update makes
        -- the statement evaluate again); every other case is mero_rate_take's. The library sends this UPDATE as a
        -- statement of its own first (DecisionCall): keep the two the same.
        UPDATE ${schema}.mero_rate_limit r
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
                FROM ${schema}.mero_rate_take(p_bucket, p_per_us, p_permits, p_burst, p_hold_us, true) t;
        END IF;
    END IF;
    IF taken AND p_scope IS NOT NULL THEN
        SELECT b.reserved, b.failures, b.running INTO reserved, failures, running
            FROM ${schema}.mero_retry_begin(p_scope, p_operation, p_digest, p_lock, p_window_us, p_max, p_attempt,
                                            p_lease_us) b;
    END IF;
    RETURN NEXT;
END
$$;

CREATE OR REPLACE FUNCTION ${schema}.mero_retry_finish(p_scope text, p_operation text, p_digest text, p_lock bigint,
                                            p_attempt text, p_outcome text, p_window_us bigint, p_max integer)
    RETURNS void
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    v_async text;
BEGIN
    IF current_setting('fsync') = 'on' THEN
        v_async := set_config('synchronous_commit', 'off', true);
    END IF;
    PERFORM ${schema}.mero_retry_end(p_scope, p_operation, p_digest, p_lock, p_attempt, p_outcome, p_window_us,
                                     p_max);
END
$$;

-- Functions whose bodies name no table: only the path changes.
ALTER FUNCTION ${schema}.mero_commit_early() SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION ${schema}.mero_approval_guard() SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION ${schema}.mero_approval_notify() SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION ${schema}.mero_replay_notify() SET search_path = pg_catalog, pg_temp;
