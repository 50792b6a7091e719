-- langchain4j-mero-postgres schema, version 6: attempts of a call reserved across instances.
-- A running attempt holds one of its call's remaining failures until it ends (its row is deleted in the
-- transaction that counts its outcome) or until lease_until, should its instance die. Reservations of one
-- call are checked and taken under a transaction-level advisory lock on the call, so N instances x M
-- concurrent identical failing calls run at most max_failures.
CREATE TABLE ${schema}.mero_retry_attempt (
    scope       text        NOT NULL,
    operation   text        NOT NULL,
    digest      text        NOT NULL,
    attempt     text        NOT NULL,
    lease_until timestamptz NOT NULL,
    PRIMARY KEY (scope, operation, digest, attempt)
);
CREATE INDEX mero_retry_attempt_lease ON ${schema}.mero_retry_attempt (lease_until);
