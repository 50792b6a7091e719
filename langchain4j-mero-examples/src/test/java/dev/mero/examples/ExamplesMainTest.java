package dev.mero.examples;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The command-line entry point, as {@code mvn -Pdemo ... -Dexample=<name>} runs it. */
class ExamplesMainTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private PrintStream originalOut;

    @BeforeEach
    void captureStdout() {
        originalOut = System.out;
        System.setOut(new PrintStream(out, true, UTF_8));
    }

    @AfterEach
    void restore() {
        System.setOut(originalOut);
        System.clearProperty("example");
    }

    @Test
    void withoutAnExampleNamedTheWorkspaceAssistantRuns() throws IOException {
        Examples.main(new String[] {"--offline"});

        assertThat(out.toString(UTF_8)).startsWith("mero example 'workspace': ")
                .contains("Model: " + ModelSelection.SCRIPTED).contains("  failed   Denied: ")
                .contains("Agent: " + ScriptedSession.FINAL_ANSWER.lines().findFirst().orElseThrow());
    }

    @ParameterizedTest
    @EnumSource(value = Example.class, names = {"POLICY", "MANAGER", "SPRING"})
    void theExampleNamedByThePropertyRuns(Example example) throws IOException {
        System.setProperty("example", example.id().toUpperCase(java.util.Locale.ROOT));

        Examples.main(new String[] {"--offline"});

        assertThat(out.toString(UTF_8)).startsWith("mero example '" + example.id() + "': " + example.summary())
                .contains("Denied: ").doesNotContain("\u001b");
    }
}
