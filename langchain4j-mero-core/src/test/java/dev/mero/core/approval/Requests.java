package dev.mero.core.approval;

import dev.mero.core.Permission;

import java.util.List;

/** Small request fixtures for approval tests. */
final class Requests {

    private Requests() {
    }

    static ApprovalRequest write(String subject) {
        return ApprovalRequest.builder().contextName("worker_1").permissions(Permission.WRITE).subject(subject).build();
    }

    static ApprovalRequest command(String... argv) {
        return ApprovalRequest.builder().contextName("worker_1").permissions(Permission.EXECUTE)
                .argv(List.of(argv)).build();
    }
}
