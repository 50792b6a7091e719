package dev.mero.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.ops.CallerNarrowing;
import dev.mero.springai.testing.ScriptedSpringChatModel;
import io.micrometer.observation.ObservationRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.ToolCallingAdvisor;
import org.springframework.ai.chat.messages.ToolResponseMessage;

/**
 * Spring AI callers: the {@code ToolContext} narrows a call as LangChain4j's invocation parameters do, and a call
 * of a tool the model was not given is answered, not fatal. Everything runs through a real {@code ChatClient}
 * tool loop driven by a scripted model.
 */
class ToolContextCallerTest {

    @TempDir
    Path root;

    private Path workspace;
    private SecurityContext context;

    @BeforeEach
    void mount() throws IOException {
        workspace = Files.createDirectories(root.resolve("workspace"));
        Files.writeString(workspace.resolve("notes.md"), "Ship on Friday.\n");
        context = SecurityContext.builder().name("app")
                .path(PathEntry.of(workspace.toString(), "ws", Permission.READ, Permission.WRITE))
                .scopes("files::")
                .build();
    }

    private ToolResponseMessage.ToolResponse run(ScriptedSpringChatModel model, Map<String, Object> toolContext,
                                                 MeroToolCallbacks tools) {
        ChatClient client = ChatClient.builder(model, ObservationRegistry.NOOP, null, null,
                ToolCallingAdvisor.builder().toolCallingManager(tools.toolCallingManager())).build();
        ChatClient.ChatClientRequestSpec request = client.prompt().user("go").tools(tools);
        if (toolContext != null) {
            request = request.toolContext(toolContext);
        }
        request.call().content();
        return ScriptedSpringChatModel.lastToolResponses(model.prompts().get(1)).get(0);
    }

    private static Map<String, Object> caller(String name, String... scopes) {
        return Map.of(CallerNarrowing.CALLER, name, CallerNarrowing.SCOPES, List.of(scopes));
    }

    @Test
    void aCallerInTheToolContextIsNarrowedToItsScopes() {
        ScriptedSpringChatModel model = new ScriptedSpringChatModel()
                .callTool("write_file", "{\"path\":\"/ws/x.md\",\"content\":\"x\"}").reply("ok");

        ToolResponseMessage.ToolResponse write = run(model, caller("alice", "files:*:read"),
                MeroToolCallbacks.forContext(context));

        assertThat(write.responseData()).startsWith("Denied: Context 'alice' lacks scope 'files:file:write'");
        assertThat(workspace.resolve("x.md")).doesNotExist();
    }

    @Test
    void theSameCallWithoutACallerRunsInTheContextItself() {
        ScriptedSpringChatModel model = new ScriptedSpringChatModel()
                .callTool("write_file", "{\"path\":\"/ws/x.md\",\"content\":\"x\"}").reply("ok");

        ToolResponseMessage.ToolResponse write = run(model, Map.of("unrelated", "entry"),
                MeroToolCallbacks.forContext(context));

        assertThat(write.responseData()).isEqualTo("Wrote 1 byte to '/ws/x.md' (created the file).");
        assertThat(workspace.resolve("x.md")).hasContent("x");
    }

    @Test
    void aCallerClaimingMoreThanTheContextIsRefused() {
        SecurityContext readOnly = SecurityContext.builder().name("ro")
                .path(PathEntry.of(workspace.toString(), "ws", Permission.READ, Permission.WRITE))
                .scopes("files:*:read").build();
        ScriptedSpringChatModel model = new ScriptedSpringChatModel()
                .callTool("read_file", "{\"path\":\"/ws/notes.md\"}").reply("ok");

        ToolResponseMessage.ToolResponse read = run(model, caller("mallory", "files::"),
                MeroToolCallbacks.forContext(readOnly));

        assertThat(read.responseData()).startsWith("Denied: Caller 'mallory' cannot act in context 'ro'");
    }

    @Test
    void aMalformedCallerIsAnErrorTheModelReads() {
        ScriptedSpringChatModel model = new ScriptedSpringChatModel()
                .callTool("read_file", "{\"path\":\"/ws/notes.md\"}").reply("ok");

        ToolResponseMessage.ToolResponse read = run(model, Map.of(CallerNarrowing.CALLER, 42),
                MeroToolCallbacks.forContext(context));

        assertThat(read.responseData()).startsWith("Error: The caller's name (mero.caller) must be a non-blank");
    }

    @Test
    void aToolTheModelWasNotGivenIsRefusedByNameInsteadOfEndingTheRequest() {
        SecurityContext readOnly = SecurityContext.builder().name("ro")
                .path(PathEntry.of(workspace.toString(), "ws", Permission.READ)).build();
        MeroToolCallbacks tools = MeroToolCallbacks.forContext(readOnly);
        assertThat(tools.find("write_file")).isEmpty();
        ScriptedSpringChatModel model = new ScriptedSpringChatModel()
                .callTool("write_file", "{\"path\":\"/ws/x.md\",\"content\":\"x\"}")
                .callTool("rm_rf\n", "{}")
                .reply("ok");

        String answer = ChatClient.builder(model, ObservationRegistry.NOOP, null, null,
                        ToolCallingAdvisor.builder().toolCallingManager(tools.toolCallingManager())).build()
                .prompt().user("go").tools(tools).call().content();

        assertThat(answer).isEqualTo("ok");
        assertThat(ScriptedSpringChatModel.lastToolResponses(model.prompts().get(1)).get(0).responseData())
                .isEqualTo("Denied: the tool 'write_file' is not available to you in context 'ro': nothing here "
                        + "grants what it needs. Use the tools you were given; list_roots shows what you may do "
                        + "where.");
        assertThat(ScriptedSpringChatModel.lastToolResponses(model.prompts().get(2)).get(0).responseData())
                .isEqualTo("Error: there is no tool 'rm_rf\\n' available to you. Use one of the tools you were "
                        + "given; list_roots shows what you may do where.");
        assertThat(workspace.resolve("x.md")).doesNotExist();
    }
}
