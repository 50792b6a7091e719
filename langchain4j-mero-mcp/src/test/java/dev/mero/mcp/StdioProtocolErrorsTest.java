package dev.mero.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.core.Permission;
import dev.mero.core.PathEntry;
import dev.mero.core.SecurityContext;
import dev.mero.core.ops.MeroOperations;
import io.modelcontextprotocol.spec.McpSchema.ErrorCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * The real SDK server on the stdio transport, spoken to in raw lines: every line that is not a valid JSON-RPC
 * message gets the JSON-RPC error that names why (with {@code "id": null}), a ping is answered before the
 * handshake, and requests that need a params object and lack one are invalid params, never internal errors.
 * After each, the session goes on.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // unanswered: fails
class StdioProtocolErrorsTest {

    @TempDir
    Path temp;

    @Test
    void aLineThatIsNotJsonIsAParseErrorWithANullId() throws Exception {
        try (PipedServer piped = PipedServer.initialized(server(), "{}")) {
            for (String line : List.of("this is not json", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":", "{]")) {
                piped.send(line);
                assertError(piped.receive(), ErrorCodes.PARSE_ERROR);
            }
            assertStillServing(piped);
        }
    }

    @Test
    void invalidRequestsAreAnsweredWithANullId() throws Exception {
        try (PipedServer piped = PipedServer.initialized(server(), "{}")) {
            for (String line : List.of(
                    "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"tools/list\"}",
                    "{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"tools/list\"}",
                    "{\"jsonrpc\":\"2.0\",\"id\":[1],\"method\":\"tools/list\"}",
                    "{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"tools/list\"}",
                    "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"tools/list\"}",
                    "{\"id\":3,\"method\":\"tools/list\"}",
                    "{\"jsonrpc\":\"1.0\",\"id\":3,\"method\":\"tools/list\"}",
                    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":42}",
                    "{\"jsonrpc\":\"2.0\",\"id\":3}",
                    "{}",
                    "[{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}]",
                    "[]",
                    "42",
                    "null",
                    "\"tools/list\"")) {
                piped.send(line);
                JsonNode reply = piped.receive();
                assertThat(reply.at("/error/code").asInt()).as(line).isEqualTo(ErrorCodes.INVALID_REQUEST);
                assertError(reply, ErrorCodes.INVALID_REQUEST);
            }
            assertStillServing(piped);
        }
    }

    @Test
    void aResponseWithAnInvalidIdIsSkippedWithoutAnAnswer() throws Exception {
        try (PipedServer piped = PipedServer.initialized(server(), "{}")) {
            piped.send("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}");
            piped.send("{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"result\":{}}");

            assertStillServing(piped); // the next line out is the answer to the next request: nothing came between
        }
    }

    @Test
    void aPingBeforeInitializeIsAnsweredAtOnce() throws Exception {
        try (PipedServer piped = PipedServer.started(server())) {
            piped.send("{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"method\":\"ping\"}");

            JsonNode pong = piped.receive(); // the SDK's session would hold it until notifications/initialized

            assertThat(pong.get("id").asText()).isEqualTo("p");
            assertThat(pong.get("result").isObject()).isTrue();
            assertThat(pong.get("result").size()).isZero();
            assertThat(pong.has("error")).isFalse();
        }
    }

    @Test
    void initializeWithoutAParamsObjectIsInvalidParamsAndARightOneStillWorks() throws Exception {
        try (PipedServer piped = PipedServer.started(server())) {
            for (String params : List.of("", ",\"params\":null", ",\"params\":\"x\"", ",\"params\":[1,2]",
                    ",\"params\":7")) {
                piped.send("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"initialize\"" + params + "}");
                JsonNode reply = piped.receive();
                assertThat(reply.get("id").asInt()).as(params).isEqualTo(5);
                assertThat(reply.at("/error/code").asInt()).as(params).isEqualTo(ErrorCodes.INVALID_PARAMS);
                assertThat(reply.toString()).doesNotContain("Internal error", "java.", "Exception");
            }
            piped.send("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                    + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
            JsonNode initialized = piped.receive();
            assertThat(initialized.get("id").asInt()).isEqualTo(6);
            assertThat(initialized.at("/result/serverInfo/name").asText()).isEqualTo(MeroMcpServer.NAME);
        }
    }

    @Test
    void aToolsCallWithoutAParamsObjectIsInvalidParams() throws Exception {
        try (PipedServer piped = PipedServer.initialized(server(), "{}")) {
            for (String params : List.of("", ",\"params\":null", ",\"params\":\"read_file\"", ",\"params\":[1]")) {
                piped.send("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\"" + params + "}");
                JsonNode reply = piped.receive();
                assertThat(reply.get("id").asInt()).as(params).isEqualTo(8);
                assertThat(reply.at("/error/code").asInt()).as(params).isEqualTo(ErrorCodes.INVALID_PARAMS);
                assertThat(reply.toString()).doesNotContain("Internal error", "java.", "Exception");
            }
            assertStillServing(piped);
        }
    }

    private MeroMcpServer server() throws Exception {
        Path ws = Files.createDirectories(temp.resolve("ws"));
        Files.writeString(ws.resolve("a.txt"), "alpha");
        SecurityContext context = SecurityContext.builder().name("protocol")
                .path(PathEntry.of(ws.toString(), "ws", Permission.READ)).build();
        return MeroMcpServer.builder(MeroOperations.forContext(context)).build();
    }

    private static void assertError(JsonNode reply, int code) {
        assertThat(reply.get("jsonrpc").asText()).isEqualTo("2.0");
        assertThat(reply.has("id")).as("an error reply names the id, null here").isTrue();
        assertThat(reply.get("id").isNull()).isTrue();
        assertThat(reply.at("/error/code").asInt()).isEqualTo(code);
        assertThat(reply.at("/error/message").asText()).isNotBlank();
        assertThat(reply.has("result")).isFalse();
    }

    private static void assertStillServing(PipedServer piped) throws Exception {
        piped.callTool(99, "read_file", "{\"path\":\"/ws/a.txt\"}");
        JsonNode answer = piped.receive();
        assertThat(answer.get("id").asInt()).isEqualTo(99);
        assertThat(answer.at("/result/content/0/text").asText()).contains("alpha");
    }
}
