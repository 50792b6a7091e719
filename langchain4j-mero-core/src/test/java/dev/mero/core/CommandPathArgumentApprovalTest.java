package dev.mero.core;

import static dev.mero.core.Permission.EXECUTE;
import static dev.mero.core.Permission.READ;
import static dev.mero.core.Permission.WRITE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.approval.ApprovalDecision;
import dev.mero.core.approval.ApprovalRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A command that reads or writes a path needs the approvals that path requires, like a file tool would. */
class CommandPathArgumentApprovalTest {

    @TempDir
    Path tmp;

    Path ws;
    Path vault;

    @BeforeEach
    void setUp() throws IOException {
        Path root = tmp.toRealPath();
        ws = Files.createDirectories(root.resolve("ws"));
        vault = Files.createDirectories(root.resolve("vault"));
        Files.writeString(ws.resolve("a.txt"), "a");
        Files.writeString(vault.resolve("v.txt"), "v");
    }

    @Test
    void aCommandThatWritesIntoAnApprovalEntryNeedsApproval() {
        List<ApprovalRequest> asked = new ArrayList<>();
        SecurityContext context = SecurityContext.builder().name("w")
                .path(PathEntry.of(ws.toString(), "ws", READ, WRITE, EXECUTE))
                .path(PathEntry.builder().path(vault.toString()).slug("vault").allow(READ, WRITE)
                        .requireApproval(WRITE).build())
                .allowCommand("cp")
                .approval(request -> {
                    asked.add(request);
                    return ApprovalDecision.DENIED;
                })
                .build();

        assertThatThrownBy(() -> context.runCommand("cp a.txt " + vault.resolve("b.txt"), "/ws"))
                .isInstanceOf(ApprovalDeniedException.class)
                .hasMessage("Action 'WRITE: cp a.txt " + vault.resolve("b.txt") + "' was not approved for context 'w'.");
        assertThat(asked).singleElement().satisfies(request -> {
            assertThat(request.action()).isEqualTo("WRITE: cp a.txt " + vault.resolve("b.txt"));
            assertThat(request.permissions()).containsExactly(WRITE);
        });
        assertThat(vault.resolve("b.txt")).doesNotExist();
    }

    @Test
    void aCommandThatWritesNeedsTheContextsWriteApproval() {
        SecurityContext context = SecurityContext.builder().name("w")
                .path(PathEntry.of(ws.toString(), "ws", READ, WRITE, EXECUTE))
                .allowCommand("cp")
                .requireApproval(WRITE)
                .build();

        assertThatThrownBy(() -> context.guardCommand("cp a.txt b.txt", "/ws"))
                .isInstanceOf(ApprovalDeniedException.class)
                .hasMessage("Action 'WRITE: cp a.txt b.txt' requires approval for ['WRITE'] but no approval backend "
                        + "is configured (fail-safe deny).");
    }
}
