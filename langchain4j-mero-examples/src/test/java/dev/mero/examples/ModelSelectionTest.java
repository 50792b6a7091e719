package dev.mero.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.tools.testing.ScriptedChatModel;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ModelSelectionTest {

    private static final Map<String, String> KEY = Map.of("OPENAI_API_KEY", "sk-test");

    @Test
    void offlineByDefaultEvenWithAKey() {
        ModelSelection selection = ModelSelection.from(new String[0], KEY);

        assertThat(selection.problem()).isNull();
        assertThat(selection.isOpenAi()).isFalse();
        assertThat(selection.chatModel()).isInstanceOf(ScriptedChatModel.class);
        assertThat(selection.description()).isEqualTo("offline: scripted model, no network");
    }

    @Test
    void openAiWithTheFlagAndAKey() {
        ModelSelection selection = ModelSelection.from(new String[] {"--openai"}, KEY);

        assertThat(selection.isOpenAi()).isTrue();
        assertThat(selection.description()).isEqualTo("OpenAI model 'gpt-4o-mini'");
        assertThat(selection.toString()).doesNotContain("sk-test");
    }

    @Test
    void openAiFromTheEnvironmentWithAModelName() {
        ModelSelection selection = ModelSelection.from(new String[0],
                Map.of("OPENAI_API_KEY", "sk-test", "MERO_MODEL", "OpenAI", "OPENAI_MODEL", "gpt-4.1"));

        assertThat(selection.isOpenAi()).isTrue();
        assertThat(selection.description()).isEqualTo("OpenAI model 'gpt-4.1'");
    }

    @Test
    void openAiWithoutAKeyIsAProblemNotASilentFallback() {
        ModelSelection selection = ModelSelection.from(new String[] {"--openai"}, Map.of("OPENAI_API_KEY", " "));

        assertThat(selection.problem()).startsWith("OpenAI was requested but OPENAI_API_KEY is not set.\nUsage:");
        assertThat(selection.isOpenAi()).isFalse();
    }

    @Test
    void unknownArgumentShowsUsage() {
        assertThat(ModelSelection.from(new String[] {"--help"}, KEY).problem()).isEqualTo(ModelSelection.USAGE);
        assertThat(ModelSelection.from(new String[] {"--openai", "x"}, KEY).problem()).isEqualTo(ModelSelection.USAGE);
    }
}
