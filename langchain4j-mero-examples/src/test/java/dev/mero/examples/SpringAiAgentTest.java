package dev.mero.examples;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.springai.testing.ScriptedSpringChatModel;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.prompt.Prompt;

class SpringAiAgentTest {

    @TempDir
    Path root;

    @Test
    void theSpringAiSessionMatchesTheLangChain4jOne() throws IOException {
        ExampleRun run = ExampleRun.offline(Example.SPRING, root);

        assertThat(run.toolCalls()).containsExactlyElementsOf(WorkspaceAgentTest.CALLS);
        WorkspaceAgentTest.assertWorkspaceSession(run, "workspace-agent");
        WorkspaceAgentTest.assertWorkspaceFiles(root);
    }

    @Test
    void theDenialsReachTheModelThroughChatClient() throws IOException {
        ScriptedSpringChatModel model = ScriptedSession.springModel();
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        String answer = SpringAiAgent.run(root, model, new Transcript(new PrintStream(out, true, UTF_8)));

        List<String> results = model.prompts().stream().skip(1)
                .map(prompt -> ScriptedSpringChatModel.lastToolResponses(prompt).get(0).responseData())
                .collect(Collectors.toList());
        assertThat(results).hasSize(WorkspaceAgentTest.CALLS.size());
        assertThat(results.get(7)).startsWith("Denied: Path '/etc/passwd'");
        assertThat(results.get(8)).startsWith("Denied: '/docs' in context 'workspace-agent' lacks permission(s)");
        assertThat(answer).isEqualTo(ScriptedSession.FINAL_ANSWER);
        Prompt first = model.prompts().get(0);
        assertThat(first.getSystemMessage().getText()).contains("'Denied:'");
    }
}
