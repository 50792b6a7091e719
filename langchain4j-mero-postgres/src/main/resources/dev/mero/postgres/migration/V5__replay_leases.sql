-- langchain4j-mero-postgres schema, version 5: a claim of a replayed tool call holds for a bounded lease.
-- An owner whose instance died before it recorded a result leaves the claim; once lease_until has passed,
-- the next caller of that id takes the claim over and runs the call. NULL (claims made before version 5):
-- the claim never expires, as before.
ALTER TABLE ${schema}.mero_replay ADD COLUMN lease_until timestamptz;
