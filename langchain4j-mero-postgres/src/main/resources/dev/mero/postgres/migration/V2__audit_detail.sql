-- Operator-only facts of an audit event (the host path a link led to, a bwrap failure): never shown to the
-- model, kept for operators beside the targets.
ALTER TABLE ${schema}.mero_audit ADD COLUMN detail text;
