-- langchain4j-mero-postgres schema, version 4: one approval queue per context (tenant).
-- A request made through a context's queue records it; that queue lists and decides only its own requests.
-- NULL: a request made through the store-wide approvals(timeout) (no queue). Long names are stored as digests.
ALTER TABLE ${schema}.mero_approval ADD COLUMN queue text;
CREATE INDEX mero_approval_queue_waiting ON ${schema}.mero_approval (queue, requested_at) WHERE decision IS NULL;
