-- langchain4j-mero-postgres schema, version 3: safe from objects other roles create, and any key length.
-- Each function runs with built-ins first and then only the store's own schema, so an overload or operator
-- that another role created (where it may create in this schema, as PUBLIC could before PostgreSQL 15) is
-- never picked for a built-in of the same argument types.
ALTER FUNCTION ${schema}.mero_take_permit(text, bigint, bigint, bigint, boolean)
    SET search_path = pg_catalog, ${schema};
ALTER FUNCTION ${schema}.mero_approval_guard() SET search_path = pg_catalog, ${schema};
ALTER FUNCTION ${schema}.mero_approval_notify() SET search_path = pg_catalog, ${schema};
ALTER FUNCTION ${schema}.mero_replay_notify() SET search_path = pg_catalog, ${schema};

-- A btree row holds at most 2,704 bytes: a long context name or request id would make every audit write
-- fail. Hash indexes keep 4 bytes per row whatever the value's length, and serve the equality lookups.
DROP INDEX ${schema}.mero_audit_context_time;
CREATE INDEX mero_audit_context ON ${schema}.mero_audit USING hash (context_name);
DROP INDEX ${schema}.mero_audit_request;
CREATE INDEX mero_audit_request ON ${schema}.mero_audit USING hash (request_id) WHERE request_id IS NOT NULL;
