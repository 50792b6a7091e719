package dev.mero.mcp;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.ops.MeroOperations;
import dev.mero.core.replay.InMemoryReplayStore;
import dev.mero.core.replay.ReplayStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import com.fasterxml.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MCP has no tool-call id; a client that names the model's in {@code _meta} ({@value ToolBinding#CALL_ID})
 * gets replays: two servers (two "instances" over one shared replay store, each its own session) run one
 * {@code append_file} id once, with the keys of the arguments in any order. Without the key every call runs.
 */
class ReplayedCallsTest {

    @TempDir
    Path workspace;

    private MeroMcpServer server(ReplayStore replays) {
        return MeroMcpServer.builder(MeroOperations.forContext(SecurityContext.builder().name("replayed")
                .path(PathEntry.of(workspace.toString(), "ws", Permission.READ, Permission.WRITE))
                .replayStore(replays).build())).build();
    }

    private JsonNode call(ReplayStore replays, String params) throws Exception {
        try (PipedServer piped = PipedServer.initialized(server(replays), "{}")) {
            piped.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":" + params + "}");
            JsonNode response = piped.receive();
            assertThat(response.has("error")).as("a result: " + response).isFalse();
            return response.get("result");
        }
    }

    @Test
    void theSameCallIdInTwoSessionsOnTwoServersAppendsOnce() throws Exception {
        ReplayStore shared = InMemoryReplayStore.create();
        JsonNode first = call(shared, "{\"name\":\"append_file\",\"arguments\":{\"path\":\"/ws/log.txt\","
                + "\"content\":\"one\\n\"},\"_meta\":{\"dev.mero/toolCallId\":\"call-1\"}}");
        JsonNode repeat = call(shared, "{\"name\":\"append_file\",\"arguments\":{\"content\":\"one\\n\","
                + "\"path\":\"/ws/log.txt\"},\"_meta\":{\"dev.mero/toolCallId\":\"call-1\"}}");
        assertThat(first.get("isError").asBoolean()).isFalse();
        assertThat(repeat.at("/content/0/text").asText()).isEqualTo(first.at("/content/0/text").asText());
        assertThat(Files.readString(workspace.resolve("log.txt"))).isEqualTo("one\n");

        JsonNode outside = call(shared, "{\"name\":\"append_file\",\"arguments\":{\"path\":\"/elsewhere/x\","
                + "\"content\":\"x\"},\"_meta\":{\"dev.mero/toolCallId\":\"call-2\"}}");
        JsonNode outsideAgain = call(shared, "{\"name\":\"append_file\",\"arguments\":{\"path\":\"/elsewhere/x\","
                + "\"content\":\"x\"},\"_meta\":{\"dev.mero/toolCallId\":\"call-2\"}}");
        assertThat(outside.get("isError").asBoolean()).isTrue();
        assertThat(outsideAgain.get("isError").asBoolean()).isTrue();
        assertThat(outsideAgain.at("/content/0/text").asText()).isEqualTo(outside.at("/content/0/text").asText())
                .startsWith("Denied: ");
    }

    @Test
    void withoutAnIdEveryCallRuns() throws Exception {
        ReplayStore shared = InMemoryReplayStore.create();
        String params = "{\"name\":\"append_file\",\"arguments\":{\"path\":\"/ws/log.txt\",\"content\":\"one\\n\"}}";
        call(shared, params);
        call(shared, params);
        assertThat(Files.readString(workspace.resolve("log.txt"))).isEqualTo("one\none\n");
    }
}
