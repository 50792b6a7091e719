package dev.mero.springboot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.tool.ToolProvider;
import dev.mero.springai.testing.ScriptedSpringChatModel;
import dev.mero.tools.MeroToolArgumentsErrorHandler;
import dev.mero.tools.MeroToolExecutionErrorHandler;
import dev.mero.tools.testing.ScriptedChatModel;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * An application with nothing but the starter, Spring AI's chat-client auto-configuration, Micrometer and
 * {@code mero.policy}: a scripted Spring AI model gets the tools through a {@code ChatClient} built from the
 * auto-configured builder, a scripted LangChain4j model through an {@code AiServices} built from the starter's
 * beans; a real file is read, a path outside the mounts is denied with the core's text, the metrics move with
 * the right tags, and health and the {@code mero} endpoint report the policy without host paths. Its
 * {@code README:begin} regions are the Java snippets of {@code docs/spring-boot.md} (ReadmeSnippetsTest).
 */
@SpringBootTest(classes = StarterApplicationTest.App.class, properties = {
        "management.endpoints.web.exposure.include=health,mero", "spring.main.banner-mode=off"})
class StarterApplicationTest {

    private static final Path ROOT;

    static {
        try {
            ROOT = Files.createTempDirectory("mero-starter").toRealPath();
            Files.createDirectories(ROOT.resolve("workspace"));
            Files.writeString(ROOT.resolve("workspace/notes.md"), "Ship on Friday.\n");
            Files.createDirectories(ROOT.resolve("outside"));
            Files.writeString(ROOT.resolve("outside/secret.txt"), "top secret\n");
            Files.writeString(ROOT.resolve("policy.yaml"), """
                    name: starter_app
                    paths:
                      - path: workspace
                        slug: ws
                        allow: [READ, WRITE]
                    """);
        } catch (IOException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @DynamicPropertySource
    static void policy(DynamicPropertyRegistry properties) {
        properties.add("mero.policy", () -> ROOT.resolve("policy.yaml").toString());
    }

    @AfterAll
    static void removeFiles() throws IOException {
        try (Stream<Path> files = Files.walk(ROOT)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }

    /** The application: a chat model is all it declares. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {

        @Bean
        SwitchableChatModel chatModel() {
            return new SwitchableChatModel();
        }
    }

    /** A Spring AI chat model whose script each test sets (the auto-configured builder needs one model bean). */
    static final class SwitchableChatModel implements ChatModel {

        final AtomicReference<ScriptedSpringChatModel> script = new AtomicReference<>();

        @Override
        public ChatResponse call(Prompt prompt) {
            return script.get().call(prompt);
        }

        @Override
        public ChatOptions getOptions() {
            return script.get().getOptions();
        }
    }

    interface Agent {
        String chat(String message);
    }

    @Autowired
    SwitchableChatModel chatModel;
    @Autowired
    ChatClient.Builder chatClientBuilder;
    @Autowired
    ToolProvider toolProvider;
    @Autowired
    MeroToolExecutionErrorHandler executionErrors;
    @Autowired
    MeroToolArgumentsErrorHandler argumentErrors;
    @Autowired
    MeterRegistry registry;
    @Autowired
    MeroEndpoint endpoint;
    @Autowired
    HealthIndicator meroHealthIndicator;

    private double count(String name, String... tags) {
        var meter = registry.find(name).tags(tags);
        Timer timer = meter.timer();
        if (timer != null) {
            return timer.count();
        }
        var counter = meter.counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void aChatClientFromTheAutoConfiguredBuilderGetsTheToolsAndTheMetricsMove() {
        double denied = count("mero.tool.calls", "tool", "read_file", "outcome", "denied");
        double succeeded = count("mero.tool.calls", "tool", "read_file", "outcome", "success");
        double readAllowed = count("mero.decisions", "permission", "read", "outcome", "allowed");
        double readDenied = count("mero.decisions", "permission", "read", "outcome", "denied");
        ScriptedSpringChatModel model = new ScriptedSpringChatModel()
                .callTool("read_file", "{\"path\":\"/etc/passwd\"}")
                .callTool("read_file", "{\"path\":\"/ws/notes.md\"}")
                .then(prompt -> new AssistantMessage("The notes say: "
                        + ScriptedSpringChatModel.lastToolResponses(prompt).get(0).responseData()));
        chatModel.script.set(model);

        // README:begin spring-boot-chat-client
        ChatClient chatClient = chatClientBuilder.build();   // Spring AI's builder: the tools are its defaults
        String answer = chatClient.prompt().user("Read /etc/passwd, then the notes").call().content();
        // README:end

        List<Prompt> prompts = model.prompts();
        assertThat(prompts).hasSize(3);
        assertThat(ScriptedSpringChatModel.lastToolResponses(prompts.get(1))).singleElement()
                .extracting(ToolResponseMessage.ToolResponse::responseData).asString()
                .startsWith("Denied: Path '/etc/passwd'");
        assertThat(answer).startsWith("The notes say: ").contains("Ship on Friday.");

        assertThat(count("mero.tool.calls", "tool", "read_file", "outcome", "denied")).isEqualTo(denied + 1);
        assertThat(count("mero.tool.calls", "tool", "read_file", "outcome", "success")).isEqualTo(succeeded + 1);
        assertThat(count("mero.decisions", "permission", "read", "outcome", "allowed")).isEqualTo(readAllowed + 1);
        assertThat(count("mero.decisions", "permission", "read", "outcome", "denied")).isEqualTo(readDenied + 1);
    }

    @Test
    void aCallerNamedInTheToolContextIsNarrowedToItsScopes() throws IOException {
        double denied = count("mero.tool.calls", "tool", "write_file", "outcome", "denied");
        ScriptedSpringChatModel model = new ScriptedSpringChatModel()
                .callTool("write_file", "{\"path\":\"/ws/reader.txt\",\"content\":\"x\"}")
                .callTool("read_file", "{\"path\":\"/ws/notes.md\"}")
                .reply("done");
        chatModel.script.set(model);

        ChatClient chatClient = chatClientBuilder.build();
        // README:begin spring-boot-caller
        chatClient.prompt().user("go")
                .toolContext(Map.of("mero.caller", "reader", "mero.scopes", List.of("files:*:read")))
                .call().content();
        // README:end

        assertThat(ScriptedSpringChatModel.lastToolResponses(model.prompts().get(1)).get(0).responseData())
                .startsWith("Denied:").contains("reader");
        assertThat(ROOT.resolve("workspace/reader.txt")).doesNotExist();
        assertThat(ScriptedSpringChatModel.lastToolResponses(model.prompts().get(2)).get(0).responseData())
                .contains("Ship on Friday.");
        assertThat(count("mero.tool.calls", "tool", "write_file", "outcome", "denied")).isEqualTo(denied + 1);
    }

    @Test
    void anAiServiceBuiltFromTheStartersBeansGetsTheTools() {
        ScriptedChatModel model = new ScriptedChatModel()
                .callTool("read_file", "{\"path\":\"/ws/../outside/secret.txt\"}")
                .callTool("read_file", "{\"path\":\"/ws/notes.md\"}")
                .callTool("read_file", "{\"path\": 42}")
                .reply("done");
        // README:begin spring-boot-ai-services
        Agent agent = AiServices.builder(Agent.class).chatModel(model)
                .toolProvider(toolProvider)                    // the starter's beans, injected
                .toolExecutionErrorHandler(executionErrors)
                .toolArgumentsErrorHandler(argumentErrors)
                .build();
        // README:end

        assertThat(agent.chat("read")).isEqualTo("done");

        assertThat(model.requests().get(0).toolSpecifications()).extracting(spec -> spec.name())
                .contains("read_file", "write_file", "list_roots").doesNotContain("delete_file", "run_command");
        assertThat(ScriptedChatModel.lastToolResults(model.requests().get(1))).singleElement()
                .extracting(ToolExecutionResultMessage::text).asString().startsWith("Denied:")
                .doesNotContain("top secret").doesNotContain(ROOT.toString());
        assertThat(ScriptedChatModel.lastToolResults(model.requests().get(2)).get(0).text())
                .contains("Ship on Friday.");
        assertThat(ScriptedChatModel.lastToolResults(model.requests().get(3)).get(0).text())
                .startsWith("Error: Invalid input");
    }

    @Test
    void healthAndTheEndpointReportThePolicyWithoutHostPaths() {
        Health health = meroHealthIndicator.health(true);
        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails()).containsEntry("policy", "loaded").containsEntry("context", "starter_app")
                .containsEntry("mounts", 1).containsEntry("sandbox", "not used")
                .containsEntry("approvalStore", "not configured");

        Map<String, Object> report = endpoint.report();
        assertThat(report).containsEntry("context", "starter_app").containsEntry("sandbox", "not used")
                .doesNotContainKey("approvals");
        assertThat(report.get("mounts")).asList().singleElement().isEqualTo(Map.of("mountPoint", "/ws",
                "allowed", java.util.Set.of("READ", "WRITE"), "denied", java.util.Set.of(),
                "approvalRequired", java.util.Set.of()));
        assertThat(report.get("tools")).asList().contains("read_file", "write_file").doesNotContain("delete_file");
        assertThat(report.toString()).doesNotContain(ROOT.toString());
    }
}
