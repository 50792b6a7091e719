-- langchain4j-mero-postgres schema, version 10: less work in the UPDATE that takes a permit.
--
-- The limit columns of mero_rate_limit (per_us, permits, burst) are of the domain mero_positive_int8 instead of
-- bigint with a CHECK constraint each. The rule is the same (every value written to them is positive) and holds for
-- every writer, but it is checked where a value is assigned to one of these columns (an INSERT, an UPDATE that sets
-- it), while a table's CHECK constraints run for every row any UPDATE writes: PostgreSQL reads each constraint's
-- stored expression back and prepares it once per statement, which cost the permit's UPDATE (it sets only full_at
-- and limit_used_at) about 3 of its 25 microseconds.
--
-- mero_decide's UPDATE reads the clock three times instead of four: "GREATEST(full_at, now) - now <= interval *
-- (burst - 1)" is "full_at <= now + interval * (burst - 1)" (when full_at < now both hold, the interval being
-- positive), with one reading. The library sends the same UPDATE as a statement of its own first (DecisionCall).
-- Both still read the clock in the row's own expressions, so that a statement that waited for the row lock
-- evaluates them again, on the clock read after the lock.
--
-- mero_rate_take is restated unchanged, so that every session compiles it again against the new column types.

CREATE DOMAIN ${schema}.mero_positive_int8 AS pg_catalog.int8 CHECK (VALUE OPERATOR(pg_catalog.>) 0);

ALTER TABLE ${schema}.mero_rate_limit
    DROP CONSTRAINT mero_rate_limit_per_us_check,
    DROP CONSTRAINT mero_rate_limit_permits_check,
    DROP CONSTRAINT mero_rate_limit_burst_check,
    ALTER COLUMN per_us TYPE ${schema}.mero_positive_int8,
    ALTER COLUMN permits TYPE ${schema}.mero_positive_int8,
    ALTER COLUMN burst TYPE ${schema}.mero_positive_int8;

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
                AND r.full_at <= EXTRACT(EPOCH FROM clock_timestamp())::numeric * 1000000
                    + v_interval * (p_burst - 1)
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
