package dev.mero.examples;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.mero.tools.testing.ScriptedChatModel;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ModelSelectionTest {

    private static final Map<String, String> KEY = Map.of("OPENAI_API_KEY", "sk-test");

    @TempDir
    Path root;

    @Test
    void offlineWithoutAKey() {
        ModelSelection selection = ModelSelection.from(new String[0], Map.of());

        assertThat(selection.problem()).isNull();
        assertThat(selection.isScripted()).isTrue();
        assertThat(selection.chatModel(ScriptedChatModel::new)).isInstanceOf(ScriptedChatModel.class);
        assertThat(selection.description()).isEqualTo(ModelSelection.SCRIPTED).contains("scripted");
    }

    @Test
    void aKeySelectsARealModelAtOpenAiByDefault() {
        ModelSelection selection = ModelSelection.from(new String[0], KEY);

        assertThat(selection.isScripted()).isFalse();
        assertThat(selection.description())
                .isEqualTo("OpenAI-compatible model 'gpt-4o-mini' at https://api.openai.com/v1");
        assertThat(selection.toString()).doesNotContain("sk-test");
    }

    @Test
    void theBaseUrlAndTheModelAreHonoured() {
        ModelSelection selection = ModelSelection.from(new String[] {"--openai"}, Map.of("OPENAI_API_KEY", "sk-test",
                "OPENAI_BASE_URL", "http://localhost:11434/v1", "OPENAI_MODEL", "qwen2.5"));

        assertThat(selection.baseUrl()).isEqualTo("http://localhost:11434/v1");
        assertThat(selection.description()).isEqualTo("OpenAI-compatible model 'qwen2.5' at http://localhost:11434/v1");
    }

    @Test
    void offlineOnRequestEvenWithAKey() {
        assertThat(ModelSelection.from(new String[] {"--offline"}, KEY).isScripted()).isTrue();
        assertThat(ModelSelection.from(new String[0], Map.of("OPENAI_API_KEY", "k", "MERO_MODEL", "Scripted"))
                .isScripted()).isTrue();
    }

    @Test
    void aRealModelWithoutAKeyIsAProblemNotASilentFallback() {
        ModelSelection selection = ModelSelection.from(new String[] {"--openai"}, Map.of("OPENAI_API_KEY", " "));

        assertThat(selection.problem()).startsWith("A real model was requested but OPENAI_API_KEY is not set.\nUsage:");
        assertThat(ModelSelection.from(new String[0], Map.of("MERO_MODEL", "openai")).problem()).isNotNull();
    }

    @Test
    void unknownArgumentsShowTheUsageWithEveryExample() {
        String problem = ModelSelection.from(new String[] {"--help"}, KEY).problem();

        assertThat(problem).startsWith("Unknown argument --help\nUsage:");
        for (Example example : Example.values()) {
            assertThat(problem).contains("  " + example.id() + " ");
        }
        assertThat(ModelSelection.from(new String[] {"--offline", "--openai"}, KEY).problem()).isNotNull();
    }

    @ParameterizedTest
    @EnumSource(Example.class)
    void aServerThatIsNotThereIsNamedWithWhatToCheck(Example example) throws IOException {
        String url = "http://127.0.0.1:" + closedPort() + "/v1";
        ModelSelection selection = ModelSelection.from(new String[0],
                Map.of("OPENAI_API_KEY", "sk-test", "OPENAI_BASE_URL", url));
        Path directory = Files.createDirectories(root.resolve(example.id()));

        Throwable failure = catchThrowable(() -> example.run(directory, selection,
                new Transcript(new PrintStream(new ByteArrayOutputStream(), true, UTF_8))));

        assertThat(failure).isNotNull();
        assertThat(selection.explain(failure)).hasValueSatisfying(text -> assertThat(text)
                .startsWith("Could not connect to the model server at " + url + " (")
                .contains("Check that the server runs and listens there, and OPENAI_BASE_URL"));
    }

    @ParameterizedTest
    @EnumSource(value = Example.class, names = {"WORKSPACE", "SPRING"})
    void aRealModelIsReachedAtTheBaseUrlWithTheKeyAndTheModel(Example example) throws IOException {
        try (OpenAiStandIn server = new OpenAiStandIn()) {
            ModelSelection selection = ModelSelection.from(new String[0], Map.of("OPENAI_API_KEY", "sk-test",
                    "OPENAI_BASE_URL", server.baseUrl(), "OPENAI_MODEL", "stand-in-model"));
            Path directory = Files.createDirectories(root.resolve(example.id()));
            ByteArrayOutputStream out = new ByteArrayOutputStream();

            String answer = example.run(directory, selection, new Transcript(new PrintStream(out, true, UTF_8)));

            assertThat(answer).isEqualTo(OpenAiStandIn.ANSWER);
            assertThat(out.toString(UTF_8)).contains("Model: OpenAI-compatible model 'stand-in-model' at "
                    + server.baseUrl() + "\n").doesNotContain("scripted");
            assertThat(server.requests()).singleElement().satisfies(request -> {
                assertThat(request.method()).isEqualTo("POST");
                assertThat(request.path()).isEqualTo("/v1/chat/completions");
                assertThat(request.authorization()).isEqualTo("Bearer sk-test");
                assertThat(request.body()).contains("\"stand-in-model\"").contains("\"read_file\"")
                        .contains(WorkspaceAgent.TASK.substring(0, 40));
            });
        }
    }

    @Test
    void aBugIsNotMistakenForAServerProblem() {
        ModelSelection selection = ModelSelection.from(new String[0], KEY);

        assertThat(selection.explain(new NullPointerException("bug"))).isEmpty();
        assertThat(ModelSelection.scripted().explain(new java.net.ConnectException("refused"))).isEmpty();
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
