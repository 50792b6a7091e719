package dev.mero.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.ops.MeroOperations;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * More approval questions open than the stdio transport has call slots: every slot is held by a call that
 * waits for the user's answer, the next call waits for a slot, and the client's answers are queued behind that
 * call. The reader must read past the waiting call to the answers (they never need a slot), or nothing moves
 * until the approvals time out (ten minutes here; the test fails long before). The user declines every question:
 * each call ends with its own refusal, which only the answer can bring (a time-out reads differently), and no
 * burst of approved file operations loads the machine.
 */
class ApprovalBacklogTest {

    private static final int CALLS = DirectStdioTransportProvider.MAX_CALLS_IN_FLIGHT + 1;

    @TempDir
    Path temp;

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void answersQueuedBehindACallWaitingForASlotAreStillRead() throws Exception {
        Path ws = Files.createDirectories(temp.resolve("ws"));
        SecurityContext context = SecurityContext.builder().name("backlog")
                .path(PathEntry.of(ws.toString(), "ws", Permission.READ, Permission.WRITE))
                .requireApproval(Permission.WRITE).approval(ElicitationApproval.builder().build()).build();
        MeroMcpServer server = MeroMcpServer.builder(MeroOperations.forContext(context))
                .approvalTimeout(Duration.ofMinutes(10)).build();

        try (PipedServer piped = PipedServer.initialized(server, "{\"elicitation\":{}}")) {
            for (int id = 1; id <= CALLS; id++) {
                piped.callTool(id, "create_directory", "{\"path\":\"/ws/d" + id + "\"}");
            }
            List<JsonNode> questions = new ArrayList<>();
            for (int i = 0; i < DirectStdioTransportProvider.MAX_CALLS_IN_FLIGHT; i++) {
                JsonNode question = piped.receive(); // no call can end before its question is answered
                assertThat(question.get("method").asText()).isEqualTo("elicitation/create");
                questions.add(question);
            }
            for (JsonNode question : questions) { // queued behind the call that waits for a slot
                decline(piped, question);
            }
            Set<Integer> answered = new HashSet<>();
            int lastQuestions = 0;
            while (answered.size() < CALLS) {
                JsonNode message = piped.receive();
                if (message.has("method")) {
                    assertThat(message.get("method").asText()).isEqualTo("elicitation/create");
                    lastQuestions++;
                    decline(piped, message);
                } else {
                    int id = message.get("id").asInt();
                    assertThat(message.at("/result/content/0/text").asText()).isEqualTo("Denied: Action 'WRITE: "
                            + "/ws/d" + id + "' was not approved for context 'backlog'.");
                    assertThat(answered.add(id)).isTrue();
                }
            }
            assertThat(lastQuestions).as("the call that waited for a slot asked once it ran").isEqualTo(1);
        }
        for (int id = 1; id <= CALLS; id++) {
            assertThat(ws.resolve("d" + id)).doesNotExist();
        }
    }

    private static void decline(PipedServer piped, JsonNode question) throws Exception {
        piped.send("{\"jsonrpc\":\"2.0\",\"id\":" + question.get("id") + ",\"result\":{\"action\":\"decline\"}}");
    }
}
