package dev.mero.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.ops.MeroOperations;
import dev.mero.springai.testing.ScriptedSpringChatModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.DefaultToolCallingManager;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolExecutionResult;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.tool.ToolCallback;

/** The callbacks inside Spring AI's own tool loop, driven by a scripted model. */
class ChatClientLoopTest {

    @TempDir
    Path root;

    private SecurityContext context;
    private Path workspace;

    @BeforeEach
    void mount() throws IOException {
        workspace = Files.createDirectories(root.resolve("workspace"));
        Files.writeString(workspace.resolve("notes.md"), "Ship on Friday.\n");
        context = SecurityContext.builder()
                .name("spring-loop")
                .path(PathEntry.of(workspace.toString(), "ws", Permission.READ, Permission.WRITE))
                .build();
    }

    @Test
    void aDenialReachesTheModelsNextPromptAndTheConversationGoesOn() {
        ScriptedSpringChatModel model = new ScriptedSpringChatModel()
                .callTool("read_file", "{\"path\":\"/etc/passwd\"}")
                .callTool("read_file", "{\"path\":\"/ws/notes.md\"}")
                .then(prompt -> new AssistantMessage("The notes say: "
                        + ScriptedSpringChatModel.lastToolResponses(prompt).get(0).responseData()));

        String answer = ChatClient.create(model).prompt().user("Read /etc/passwd, then the notes")
                .tools(MeroToolCallbacks.forContext(context)).call().content();

        List<Prompt> prompts = model.prompts();
        assertThat(prompts).hasSize(3);
        List<ToolResponseMessage.ToolResponse> denied = ScriptedSpringChatModel.lastToolResponses(prompts.get(1));
        assertThat(denied).singleElement().satisfies(response -> {
            assertThat(response.name()).isEqualTo("read_file");
            assertThat(response.responseData()).startsWith("Denied: Path '/etc/passwd'"); // a decision, not data
        });
        assertThat(ScriptedSpringChatModel.lastToolResponses(prompts.get(2)).get(0).responseData())
                .contains("Ship on Friday.");
        assertThat(answer).startsWith("The notes say: ").contains("Ship on Friday.");
    }

    @Test
    void theModelIsOfferedExactlyTheCatalogueOfTheContext() {
        ScriptedSpringChatModel model = new ScriptedSpringChatModel().reply("nothing to do");

        ChatClient.create(model).prompt().user("hi").tools(MeroToolCallbacks.forContext(context)).call().content();

        ToolCallingChatOptions options = (ToolCallingChatOptions) model.prompts().get(0).getOptions();
        assertThat(options.getToolCallbacks()).extracting(callback -> callback.getToolDefinition().name())
                .containsExactlyElementsOf(MeroOperations.forContext(context).availableTools().stream()
                        .map(tool -> tool.name()).collect(Collectors.toList()));
    }

    @Test
    void aWriteThroughTheLoopLandsOnDisk() {
        ScriptedSpringChatModel model = new ScriptedSpringChatModel()
                .callTool("write_file", "{\"path\":\"/ws/summary.md\",\"content\":\"Ship on Friday.\"}")
                .reply("done");

        ChatClient.create(model).prompt().user("write").tools(MeroToolCallbacks.forContext(context)).call().content();

        assertThat(workspace.resolve("summary.md")).hasContent("Ship on Friday.");
        assertThat(ScriptedSpringChatModel.lastToolResponses(model.prompts().get(1)).get(0).responseData())
                .doesNotStartWith("Denied:").doesNotStartWith("Error:");
    }

    @Test
    void aBugInAToolAbortsTheChatClientCall() {
        IllegalStateException bug = new IllegalStateException("a real bug");
        MeroOperations broken = BrokenOperations.throwingOnReadFile(context, bug);
        ScriptedSpringChatModel model = new ScriptedSpringChatModel()
                .callTool("read_file", "{\"path\":\"/ws/notes.md\"}")
                .reply("never reached");

        assertThatThrownBy(() -> ChatClient.create(model).prompt().user("go")
                .tools(MeroToolCallbacks.forOperations(broken)).call().content())
                .isSameAs(bug);
        assertThat(model.prompts()).hasSize(1);
    }

    @Test
    void theToolCallingManagerAloneMapsDenialsWhateverItsExceptionProcessor() {
        ToolCallback[] callbacks = MeroToolCallbacks.forContext(context).getToolCallbacks();
        Prompt prompt = new Prompt("go", ToolCallingChatOptions.builder().toolCallbacks(callbacks).build());
        AssistantMessage call = AssistantMessage.builder().content("").toolCalls(List.of(
                new AssistantMessage.ToolCall("call-1", "function", "write_file",
                        "{\"path\":\"/etc/cron.d/x\",\"content\":\"* * * * * root sh\"}"))).build();
        DefaultToolCallingManager manager = DefaultToolCallingManager.builder()
                .toolExecutionExceptionProcessor(exception -> {
                    throw exception; // an application that rethrows every tool exception
                })
                .build();

        ToolExecutionResult result = manager.executeToolCalls(prompt, new ChatResponse(List.of(new Generation(call))));

        ToolResponseMessage last = (ToolResponseMessage) result.conversationHistory()
                .get(result.conversationHistory().size() - 1);
        assertThat(last.getResponses().get(0).responseData()).startsWith("Denied: Path '/etc/cron.d/x'");
    }
}
