package dev.mero.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The jar's process as a client that speaks raw JSON-RPC lines sees it: stdout carries protocol messages and
 * nothing else, errors reveal nothing, the audit goes to stderr, and closing stdin ends the process cleanly;
 * a broken start exits non-zero with the reason on stderr.
 */
class RawProtocolIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path tempDir;

    @Test
    void stdoutCarriesOnlyProtocolMessagesAndClosingStdinEndsTheServer() throws Exception {
        TestFiles files = TestFiles.create(tempDir);
        Path policy = files.policy("policy.json", """
                {"name": "raw", "paths": [{"path": "ws", "slug": "ws", "allow": ["READ"]}]}
                """);
        List<String> requests = List.of(
                """
                {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",\
                "capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}""",
                """
                {"jsonrpc":"2.0","method":"notifications/initialized"}""",
                """
                {"jsonrpc":"2.0","id":2,"method":"tools/list"}""",
                """
                {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_file",\
                "arguments":{"path":"/ws/a.txt"}}}""",
                """
                {"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"read_file","arguments":[1,2]}}""",
                """
                {"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"read_file",\
                "arguments":{"path":"/ws/../secret/key.txt"}}}""",
                """
                {"jsonrpc":"2.0","id":6,"method":"no/such/method"}""",
                """
                {"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"read_file","arguments":{"path":7}}}""");

        Process process = new ProcessBuilder(ServerProcess.java(), "-jar", ServerProcess.jar().toString(),
                "--policy", policy.toString()).start();
        CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> readAll(process.getErrorStream()));
        Map<Integer, JsonNode> responses = new HashMap<>();
        List<String> lines = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            try (OutputStream in = process.getOutputStream()) { // closing it ends the server's input
                for (String request : requests) {
                    in.write((request + "\n").getBytes(StandardCharsets.UTF_8));
                    in.flush();
                    if (request.contains("\"id\":")) {
                        String line = out.readLine(); // answers come in order here: each waits for the last
                        assertThat(line).as("answer to %s", request).isNotNull();
                        lines.add(line);
                        JsonNode message = JSON.readTree(line);
                        responses.put(message.get("id").asInt(), message);
                    }
                }
            }
            String rest = out.lines().collect(Collectors.joining("\n"));
            assertThat(rest).as("nothing after the last answer").isEmpty();
        }
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(process.exitValue()).isZero();
        assertThat(lines).allSatisfy(line -> assertThat(JSON.readTree(line).get("jsonrpc").asText()).isEqualTo("2.0"));
        assertThat(responses).containsOnlyKeys(1, 2, 3, 4, 5, 6, 7);
        assertThat(responses.get(1).at("/result/serverInfo/name").asText()).isEqualTo("langchain4j-mero-mcp");
        assertThat(responses.get(3).at("/result/isError").asBoolean()).isFalse();
        assertThat(responses.get(3).at("/result/content/0/text").asText()).contains("alpha");
        assertThat(responses.get(4).at("/error/code").asInt()).isEqualTo(-32602);
        assertThat(responses.get(4).at("/error/message").asText()).isEqualTo(StrictParamsMapper.INVALID_PARAMS_MESSAGE);
        assertThat(responses.get(5).at("/result/isError").asBoolean()).isTrue();
        assertThat(responses.get(5).at("/result/content/0/text").asText()).startsWith("Denied: ");
        assertThat(responses.get(6).at("/error/code").asInt()).isEqualTo(-32601);
        assertThat(responses.get(7).at("/result/content/0/text").asText()).startsWith("Error: Invalid input");
        assertThat(String.join("\n", lines)).doesNotContain(TestFiles.SECRET, "java.", "Exception");
        assertThat(stderr.get(60, TimeUnit.SECONDS)).contains("dev.mero.audit");
    }

    @Test
    void aMissingPolicyExitsNonZeroWithTheLoadersMessageOnStderr() throws Exception {
        Process process = new ProcessBuilder(ServerProcess.java(), "-jar", ServerProcess.jar().toString(),
                "--policy", tempDir.resolve("absent.yaml").toString()).start();
        process.getOutputStream().close();
        CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> readAll(process.getErrorStream()));
        String stdout = readAll(process.getInputStream());

        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).isEqualTo(MeroMcpMain.EXIT_POLICY);
        assertThat(stdout).isEmpty();
        assertThat(stderr.get(60, TimeUnit.SECONDS)).contains("Policy file '", "absent.yaml");
    }

    private static String readAll(java.io.InputStream stream) {
        try {
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
