-- langchain4j-mero-postgres schema, version 1: the state several application instances share.
-- Applied by SchemaMigrations when asked (migrate = true), inside one transaction, under an advisory lock.
-- ${schema} is the store's schema, quoted; SchemaMigrations runs it with search_path = pg_catalog, ${schema}.

-- Token buckets. One permit is `cost` tokens (the period in microseconds); every microsecond adds
-- `permits` tokens, never beyond `capacity` (cost * burst). The bucket's name includes its limit.
CREATE TABLE ${schema}.mero_rate_bucket (
    bucket      text        PRIMARY KEY,
    tokens      bigint      NOT NULL CHECK (tokens >= 0),
    refilled_at timestamptz NOT NULL
);

-- Refills the bucket to now and, when p_take and a permit is there, takes it. One call, one row lock:
-- concurrent instances never take more permits than the bucket holds.
CREATE FUNCTION ${schema}.mero_take_permit(p_bucket text, p_capacity bigint, p_cost bigint, p_permits bigint,
                                 p_take boolean)
    RETURNS TABLE (taken boolean, tokens bigint)
    LANGUAGE plpgsql AS $$
DECLARE
    v_tokens   bigint;
    v_at       timestamptz;
    v_now      timestamptz;
    v_elapsed  numeric;
    v_refilled bigint;
BEGIN
    INSERT INTO mero_rate_bucket AS b (bucket, tokens, refilled_at)
        VALUES (p_bucket, p_capacity, clock_timestamp())
        ON CONFLICT (bucket) DO NOTHING;
    SELECT b.tokens, b.refilled_at INTO v_tokens, v_at
        FROM mero_rate_bucket b WHERE b.bucket = p_bucket FOR UPDATE;
    v_now := clock_timestamp();  -- read after the lock: time never runs backwards between holders
    v_elapsed := GREATEST(0, EXTRACT(EPOCH FROM (v_now - v_at)) * 1000000);
    v_refilled := LEAST(p_capacity::numeric, v_tokens + floor(v_elapsed) * p_permits)::bigint;
    taken := p_take AND v_refilled >= p_cost;
    tokens := CASE WHEN taken THEN v_refilled - p_cost ELSE v_refilled END;
    UPDATE mero_rate_bucket b SET tokens = mero_take_permit.tokens, refilled_at = GREATEST(v_at, v_now)
        WHERE b.bucket = p_bucket;
    RETURN NEXT;
END
$$;

-- Consecutive failures of one call (operation + SHA-256 digest of its arguments; never the arguments).
CREATE TABLE ${schema}.mero_retry_budget (
    scope        text        NOT NULL,
    operation    text        NOT NULL,
    digest       text        NOT NULL,
    failures     integer     NOT NULL CHECK (failures >= 1),
    last_failure timestamptz NOT NULL,
    PRIMARY KEY (scope, operation, digest)
);
CREATE INDEX mero_retry_budget_last_failure ON ${schema}.mero_retry_budget (last_failure);

-- Approval requests. Exactly one decision per request: it is written once (decision IS NULL before), and a
-- trigger refuses to change it afterwards or to approve a request that expired. Any writer (a web page, a
-- chat bot) may decide:  UPDATE mero_approval SET decision = 'APPROVED', decided_by = 'alice'
--                        WHERE id = '...' AND decision IS NULL;
CREATE TABLE ${schema}.mero_approval (
    id           text        PRIMARY KEY,
    context_name text        NOT NULL,
    action       text        NOT NULL,
    subject      text,
    permissions  text        NOT NULL,
    target       text,
    argv         text[]      NOT NULL DEFAULT '{}',
    details      text,
    requested_at timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL,
    decision     text        CHECK (decision IN ('APPROVED', 'DENIED', 'TIMED_OUT', 'WITHDRAWN')),
    decided_at   timestamptz,
    decided_by   text
);
CREATE INDEX mero_approval_waiting ON ${schema}.mero_approval (requested_at) WHERE decision IS NULL;

CREATE FUNCTION ${schema}.mero_approval_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.decision IS NOT NULL AND NEW.decision IS DISTINCT FROM OLD.decision THEN
        RAISE EXCEPTION 'approval request % was already decided (%)', OLD.id, OLD.decision
            USING ERRCODE = 'check_violation';
    END IF;
    IF OLD.decision IS NULL AND NEW.decision IN ('APPROVED', 'DENIED') AND clock_timestamp() > OLD.expires_at THEN
        RAISE EXCEPTION 'approval request % expired at %', OLD.id, OLD.expires_at
            USING ERRCODE = 'check_violation';
    END IF;
    IF OLD.decision IS NULL AND NEW.decision IS NOT NULL THEN
        NEW.decided_at := clock_timestamp();
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER mero_approval_guard BEFORE UPDATE ON ${schema}.mero_approval
    FOR EACH ROW EXECUTE FUNCTION ${schema}.mero_approval_guard();

CREATE FUNCTION ${schema}.mero_approval_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify(CASE WHEN TG_OP = 'INSERT' THEN 'mero_approval_requested' ELSE 'mero_approval_decided' END,
                      left(NEW.id, 1000));
    RETURN NULL;
END
$$;
CREATE TRIGGER mero_approval_requested AFTER INSERT ON ${schema}.mero_approval
    FOR EACH ROW EXECUTE FUNCTION ${schema}.mero_approval_notify();
CREATE TRIGGER mero_approval_decided AFTER UPDATE OF decision ON ${schema}.mero_approval
    FOR EACH ROW WHEN (OLD.decision IS NULL AND NEW.decision IS NOT NULL) EXECUTE FUNCTION ${schema}.mero_approval_notify();

-- Replayed tool calls: the first instance to insert an id runs the call; the result is written once.
CREATE TABLE ${schema}.mero_replay (
    scope        text        NOT NULL,
    call_id      text        NOT NULL,
    result       text,
    claimed_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
    completed_at timestamptz,
    PRIMARY KEY (scope, call_id)
);
CREATE INDEX mero_replay_claimed_at ON ${schema}.mero_replay (claimed_at);

CREATE FUNCTION ${schema}.mero_replay_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('mero_replay_completed', left(NEW.call_id, 1000));
    RETURN NULL;
END
$$;
CREATE TRIGGER mero_replay_completed AFTER UPDATE OF result ON ${schema}.mero_replay
    FOR EACH ROW WHEN (OLD.result IS NULL AND NEW.result IS NOT NULL) EXECUTE FUNCTION ${schema}.mero_replay_notify();

-- The audit trail: one row per decision. No file contents, diffs, environments or secrets: the columns are
-- those of dev.mero.core.audit.AuditEvent, which has no field for them.
CREATE TABLE ${schema}.mero_audit (
    id           bigserial   PRIMARY KEY,
    occurred_at  timestamptz NOT NULL,
    recorded_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
    event_type   text        NOT NULL,
    outcome      text        NOT NULL CHECK (outcome IN ('allowed', 'denied', 'pending', 'failed')),
    context_name text,
    action       text,
    subject      text,
    permissions  text        NOT NULL,
    reason       text,
    error_code   text,
    request_id   text,
    targets      text[]      NOT NULL DEFAULT '{}',
    content_sha256 text,
    instance     text        NOT NULL
);
CREATE INDEX mero_audit_context_time ON ${schema}.mero_audit (context_name, occurred_at);
CREATE INDEX mero_audit_outcome_time ON ${schema}.mero_audit (outcome, occurred_at);
CREATE INDEX mero_audit_time ON ${schema}.mero_audit (occurred_at);
CREATE INDEX mero_audit_request ON ${schema}.mero_audit (request_id) WHERE request_id IS NOT NULL;
