package dev.mero.mcp;

import static dev.mero.mcp.ServerProcess.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.core.ops.MeroOperations;
import dev.mero.core.catalogue.ToolDescriptor;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The packaged jar as an MCP server over stdio, driven by the SDK's client: every tool allowed, denied,
 * malformed and concurrent, hanging and huge files, and client roots that try to widen the policy.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StdioServerIT {

    /** Well above anything a healthy call takes on a loaded machine; only a hang reaches it. */
    private static final long HANG_SECONDS = 60;

    @TempDir
    static Path tempDir;

    private TestFiles files;
    private Path policy;
    private ServerProcess server;

    @BeforeAll
    void startServer() throws Exception {
        files = TestFiles.create(tempDir);
        policy = files.policy("policy.yaml", """
                name: mcp_it
                paths:
                  - path: ws
                    slug: ws
                    allow: [READ, WRITE, DELETE, EXECUTE]
                commands:
                  allow: ["ls", "cat"]
                """);
        server = ServerProcess.start(policy);
    }

    @AfterAll
    void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void listsTheCatalogueToolsThePolicyCanUseWithSchemasAndAnnotations() throws Exception {
        List<ToolDescriptor> expected = MeroOperations.forContext(MeroMcpServer.loadPolicy(policy)).availableTools();

        List<McpSchema.Tool> listed = server.client().listTools().tools();

        assertThat(listed).extracting(McpSchema.Tool::name)
                .containsExactlyElementsOf(expected.stream().map(ToolDescriptor::name).toList())
                .contains("list_roots", "read_file", "write_file", "list_directory");
        JsonMapper json = JsonMapper.builder().build();
        for (int i = 0; i < expected.size(); i++) {
            ToolDescriptor descriptor = expected.get(i);
            McpSchema.Tool tool = listed.get(i);
            assertThat(tool.description()).isEqualTo(descriptor.description());
            com.fasterxml.jackson.databind.JsonNode schema = json.valueToTree(tool.inputSchema());
            assertThat(schema).isEqualTo(json.readTree(descriptor.jsonSchema()));
            assertThat(tool.annotations().readOnlyHint()).isEqualTo(descriptor.hints().readOnly());
            assertThat(tool.annotations().destructiveHint()).isEqualTo(descriptor.hints().destructive());
            assertThat(tool.annotations().idempotentHint()).isEqualTo(descriptor.hints().idempotent());
            assertThat(tool.annotations().openWorldHint()).isEqualTo(descriptor.hints().openWorld());
        }
    }

    @Test
    void everyListedToolDoesItsJob() throws Exception {
        files.write("calls/edit.txt", "before\n");
        files.write("calls/move-me.txt", "moving\n");
        files.write("calls/delete-me.txt", "bye\n");
        files.write("calls/docs/notes.md", "a needle in a haystack\n");
        Files.createDirectories(files.ws.resolve("calls/empty-dir"));
        Path calls = files.ws.resolve("calls");
        Map<String, Call> examples = new LinkedHashMap<>();
        examples.put("list_roots", new Call(Map.of(), text -> assertThat(text).contains("/ws")));
        examples.put("read_file", new Call(Map.of("path", "/ws/a.txt"), text -> assertThat(text).contains("alpha")));
        examples.put("write_file", new Call(Map.of("path", "/ws/calls/new.txt", "content", "hello"),
                text -> assertThat(calls.resolve("new.txt")).hasContent("hello")));
        examples.put("append_file", new Call(Map.of("path", "/ws/calls/delete-me.txt", "content", "more\n"),
                text -> assertThat(calls.resolve("delete-me.txt")).hasContent("bye\nmore\n")));
        examples.put("edit_file", new Call(Map.of("path", "/ws/calls/edit.txt", "old_text", "before",
                "new_text", "after"), text -> assertThat(calls.resolve("edit.txt")).hasContent("after\n")));
        examples.put("copy_file", new Call(Map.of("source", "/ws/a.txt", "destination", "/ws/calls/copy.txt"),
                text -> assertThat(calls.resolve("copy.txt")).hasContent("alpha\n")));
        examples.put("move_file", new Call(Map.of("source", "/ws/calls/move-me.txt", "destination",
                "/ws/calls/moved.txt"), text -> {
                    assertThat(calls.resolve("move-me.txt")).doesNotExist();
                    assertThat(calls.resolve("moved.txt")).hasContent("moving\n");
                }));
        examples.put("delete_file", new Call(Map.of("path", "/ws/calls/delete-me.txt"),
                text -> assertThat(calls.resolve("delete-me.txt")).doesNotExist()));
        examples.put("file_info", new Call(Map.of("path", "/ws/a.txt"), text -> assertThat(text).contains("a.txt")));
        examples.put("list_directory", new Call(Map.of("path", "/ws/calls"),
                text -> assertThat(text).contains("edit.txt")));
        examples.put("directory_tree", new Call(Map.of("path", "/ws/calls/docs"),
                text -> assertThat(text).contains("notes.md")));
        examples.put("create_directory", new Call(Map.of("path", "/ws/calls/made"),
                text -> assertThat(calls.resolve("made")).isDirectory()));
        examples.put("delete_directory", new Call(Map.of("path", "/ws/calls/empty-dir"),
                text -> assertThat(calls.resolve("empty-dir")).doesNotExist()));
        examples.put("find_files", new Call(Map.of("path", "/ws/calls", "pattern", "*.md"),
                text -> assertThat(text).contains("notes.md")));
        examples.put("search_text", new Call(Map.of("path", "/ws/calls/docs", "pattern", "needle"),
                text -> assertThat(text).contains("needle")));
        examples.put("run_command", new Call(Map.of("command", "cat a.txt", "working_directory", "/ws"),
                text -> assertThat(text).contains("alpha")));
        examples.put("sync_directory", new Call(Map.of("source", "/ws/calls/docs", "destination",
                "/ws/calls/docs-copy"), text -> assertThat(calls.resolve("docs-copy/notes.md")).exists()));
        List<String> listed = listed();
        assertThat(examples.keySet()).as("an example call for every listed tool").containsAll(listed);
        assertThat(listed).contains("list_roots", "read_file", "write_file", "list_directory");

        for (Map.Entry<String, Call> example : examples.entrySet()) {
            if (listed.contains(example.getKey())) {
                CallToolResult result = server.call(example.getKey(), example.getValue().arguments());
                String text = text(result);
                assertThat(result.isError()).as("%s -> %s", example.getKey(), text).isFalse();
                assertThat(text).doesNotContain(files.root.toString());
                example.getValue().check().accept(text);
            }
        }
    }

    private List<String> listed() {
        return server.client().listTools().tools().stream().map(McpSchema.Tool::name).toList();
    }

    /** Arguments of an allowed call and what must hold after it. */
    private record Call(Map<String, Object> arguments, java.util.function.Consumer<String> check) {
    }

    @Test
    void escapesAreDeniedWithoutLeakingContent() throws Exception {
        String host = files.root.toString();
        List<Map<String, Object>> reads = List.of(
                Map.of("path", "/ws/../secret/key.txt"),
                Map.of("path", "../secret/key.txt"),
                Map.of("path", files.secret.resolve("key.txt").toString()),
                Map.of("path", "/ws/link-out/key.txt"),
                Map.of("path", "/ws'/key.txt"),
                Map.of("path", host + "/ws'/key.txt"),
                Map.of("path", host + "/ws /key.txt"),
                Map.of("path", "/etc/passwd"),
                Map.of("path", "/ws/%2e%2e/secret/key.txt"));
        List<String> texts = new ArrayList<>();
        for (Map<String, Object> arguments : reads) {
            CallToolResult result = server.call("read_file", arguments);
            assertThat(result.isError()).as("read_file %s -> %s", arguments, text(result)).isTrue();
            texts.add(text(result));
        }
        CallToolResult write = server.call("write_file", Map.of("path", "/ws/link-out/planted.txt", "content", "x"));
        assertThat(write.isError()).isTrue();
        texts.add(text(write));
        CallToolResult listing = server.call("list_directory", Map.of("path", "/ws/link-out"));
        assertThat(listing.isError()).isTrue();
        texts.add(text(listing));
        if (listed().contains("run_command")) {
            for (String commandLine : List.of("rm -rf /ws", "cat a.txt; cat ../secret/key.txt", "cat ../secret/key.txt")) {
                CallToolResult command = server.call("run_command", Map.of("command", commandLine));
                assertThat(command.isError()).as(commandLine).isTrue();
                assertThat(text(command)).startsWith("Denied: ");
                texts.add(text(command));
            }
        }

        assertThat(texts).allSatisfy(text -> assertThat(text)
                .matches("(?s)(Denied|Error): .*")
                .doesNotContain(TestFiles.SECRET));
        assertThat(texts.get(0)).startsWith("Denied: ");
        assertThat(files.secret.resolve("planted.txt")).doesNotExist();
        assertThat(files.ws.resolve("a.txt")).exists();
    }

    @Test
    void malformedArgumentsAreInvalidInputResults() {
        List<Map<String, Object>> malformed = List.of(
                Map.of(),
                Map.of("path", 42),
                Map.of("path", List.of("/ws/a.txt")),
                Map.of("path", Map.of("x", 1)),
                Map.of("path", "/ws/a.txt", "bogus", 1),
                Map.of("path", "/ws/a.txt", "limit", "10"),
                Map.of("path", "/ws/a.txt", "limit", 1.5),
                Map.of("path", "/ws/a.txt", "offset", true));
        for (Map<String, Object> arguments : malformed) {
            CallToolResult result = server.call("read_file", arguments);
            assertThat(result.isError()).as("%s", arguments).isTrue();
            assertThat(text(result)).as("%s", arguments).startsWith("Error: Invalid input");
        }
    }

    @Test
    void aToolThePolicyCannotUseIsNotThere() throws Exception {
        Path readOnly = files.policy("read-only.yaml", """
                paths:
                  - path: ws
                    slug: ws
                    allow: [READ]
                """);
        try (ServerProcess reader = ServerProcess.start(readOnly)) {
            Set<String> names = reader.client().listTools().tools().stream().map(McpSchema.Tool::name)
                    .collect(Collectors.toSet());
            assertThat(names).contains("read_file").doesNotContain("write_file", "delete_file", "run_command");

            CallToolResult refused = reader.call("write_file", Map.of("path", "/ws/x.txt", "content", "x"));

            // answered like every refusal: a result flagged as an error that names the tool
            assertThat(refused.isError()).isTrue();
            assertThat(text(refused)).startsWith("Denied: the tool 'write_file' is not available to you in context ");
            assertThat(files.ws.resolve("x.txt")).doesNotExist();
        }
    }

    @Test
    void concurrentCallsAreServedConcurrentlyAndEachGetsItsOwnAnswer() throws Exception {
        int fileCount = 16;
        for (int i = 0; i < fileCount; i++) {
            files.write("pages/p" + i + ".txt", TestFiles.page("marker-" + i));
        }
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<String>> answers = new ArrayList<>();
            for (int call = 0; call < 64; call++) {
                int file = call % fileCount;
                answers.add(pool.submit(() -> {
                    CallToolResult result = server.call("read_file", Map.of("path", "/ws/pages/p" + file + ".txt"));
                    return (result.isError() ? "ERROR " : "") + text(result);
                }));
            }
            for (int call = 0; call < answers.size(); call++) {
                String answer = answers.get(call).get(HANG_SECONDS, TimeUnit.SECONDS);
                int file = call % fileCount;
                assertThat(answer).doesNotStartWith("ERROR").contains("marker-" + file + "\n")
                        .doesNotContain("marker-" + ((file + 1) % fileCount) + "\n");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aFifoNeitherHangsNorBlocksOtherRequests() throws Exception {
        files.fifo("pipe");
        CompletableFuture<CallToolResult> fifoRead = CompletableFuture.supplyAsync(
                () -> server.call("read_file", Map.of("path", "/ws/pipe")));

        CallToolResult other = server.call("read_file", Map.of("path", "/ws/a.txt"));
        CallToolResult fifo = fifoRead.get(HANG_SECONDS, TimeUnit.SECONDS);

        assertThat(other.isError()).isFalse();
        assertThat(text(other)).contains("alpha");
        assertThat(fifo.isError()).isTrue();
        assertThat(text(fifo)).startsWith("Error: ").doesNotContain(files.root.toString());
    }

    @Test
    void aHugeFileWithoutNewlinesIsReadBoundedWithoutBlockingOtherRequests() throws Exception {
        files.huge("huge.bin", 3L << 30);
        CompletableFuture<CallToolResult> hugeRead = CompletableFuture.supplyAsync(
                () -> server.call("read_file", Map.of("path", "/ws/huge.bin")));

        CallToolResult other = server.call("list_directory", Map.of("path", "/ws"));
        CallToolResult huge = hugeRead.get(HANG_SECONDS, TimeUnit.SECONDS);

        assertThat(other.isError()).isFalse();
        assertThat(text(other)).contains("a.txt");
        assertThat(text(huge).length()).isLessThan(4 << 20);
    }

    @Test
    void clientRootsCannotWidenThePolicy() throws Exception {
        McpSchema.Root secretRoot = new McpSchema.Root(files.secret.toUri().toString(), "secret");
        McpSchema.Root everything = new McpSchema.Root("file:///", "everything");
        try (ServerProcess rooted = ServerProcess.start(policy, spec -> spec
                .capabilities(McpSchema.ClientCapabilities.builder().roots(true).build())
                .roots(secretRoot, everything))) {
            rooted.client().rootsListChangedNotification();

            CallToolResult absolute = rooted.call("read_file", Map.of("path", files.secret.resolve("key.txt").toString()));
            CallToolResult relative = rooted.call("read_file", Map.of("path", "key.txt"));
            CallToolResult roots = rooted.call("list_roots", Map.of());

            assertThat(absolute.isError()).isTrue();
            assertThat(text(absolute)).startsWith("Denied: ").doesNotContain(TestFiles.SECRET);
            assertThat(relative.isError()).isTrue();
            assertThat(text(relative)).doesNotContain(TestFiles.SECRET);
            assertThat(text(roots)).contains("/ws").doesNotContain("secret", "everything");
        }
    }
}
