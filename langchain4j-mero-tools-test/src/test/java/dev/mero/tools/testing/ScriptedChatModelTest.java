package dev.mero.tools.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScriptedChatModelTest {

    private final ScriptedChatModel model = new ScriptedChatModel();

    @Test
    void the_last_tool_results_are_the_trailing_ones_in_an_immutable_list() {
        ToolExecutionRequest first = model.toolCall("read_file", "{\"path\":\"/ws/a\"}");
        ToolExecutionRequest second = model.toolCall("read_file", "{\"path\":\"/ws/b\"}");
        ChatRequest request = ChatRequest.builder().messages(
                UserMessage.from("summarise"),
                AiMessage.from(List.of(first)),
                ToolExecutionResultMessage.from(first, "old"),
                AiMessage.from(List.of(second)),
                ToolExecutionResultMessage.from(second, "new")).build();

        List<ToolExecutionResultMessage> results = ScriptedChatModel.lastToolResults(request);

        assertThat(results).extracting(ToolExecutionResultMessage::text).containsExactly("new");
        assertThatThrownBy(() -> results.add(ToolExecutionResultMessage.from(first, "forged")))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void a_request_that_does_not_end_in_tool_results_has_none() {
        ChatRequest request = ChatRequest.builder().messages(UserMessage.from("hello")).build();

        assertThat(ScriptedChatModel.lastToolResults(request)).isEmpty();
    }

    @Test
    void missing_arguments_are_named() {
        assertThatThrownBy(() -> ScriptedChatModel.lastToolResults(null))
                .isInstanceOf(NullPointerException.class).hasMessage("request");
        assertThatThrownBy(() -> model.callTools((ToolExecutionRequest[]) null))
                .isInstanceOf(NullPointerException.class).hasMessage("calls");
    }
}
