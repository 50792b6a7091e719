package dev.mero.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonParseException;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.exception.ToolArgumentsException;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.ToolErrorContext;
import dev.mero.core.InvalidInputException;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class MeroToolArgumentsErrorHandlerTest {

    private final MeroToolArgumentsErrorHandler handler = new MeroToolArgumentsErrorHandler();

    private static ToolErrorContext context(String tool, String arguments, Exception raw) {
        return ToolErrorContext.builder()
                .toolExecutionRequest(ToolExecutionRequest.builder().id("1").name(tool).arguments(arguments).build())
                .invocationContext(InvocationContext.builder().invocationId(UUID.randomUUID()).interfaceName("Agent")
                        .methodName("chat").chatMemoryId("default").build())
                .rawError(raw).build();
    }

    @Test
    void describesWhatIsWrongWithTheRawArgumentsOfACatalogueTool() {
        Exception raw = new ToolArgumentsException(new JsonParseException(null, "Unexpected end-of-input"));
        assertThat(handler.handle(raw.getCause(), context("write_file", "{\"path\": 5, \"content\": \"x\"}", raw))
                .text()).startsWith("Error: Invalid input: the argument 'path' must be a JSON string, not integer. "
                + "Expected a JSON object for write_file like {\"path\": string (required), \"content\": string "
                + "(required)} and no other keys.");
    }

    @Test
    void aLibraryDecisionInTheChainIsShownAsItIs() {
        InvalidInputException invalid = new InvalidInputException("Invalid input: x. Expected y.");
        Exception raw = new ToolArgumentsException(invalid);
        assertThat(handler.handle(invalid, context("read_file", "{}", raw)).text())
                .isEqualTo("Error: Invalid input: x. Expected y.");
    }

    @Test
    void anUnknownToolGetsAGenericHintAndNoStackTrace() {
        Exception raw = new ToolArgumentsException(new IllegalArgumentException("Required parameter \"a\" missing"));
        String text = handler.handle(raw.getCause(), context("custom_tool", "{", raw)).text();
        assertThat(text).isEqualTo("Error: Invalid input: the arguments of 'custom_tool' could not be read. Expected a "
                + "JSON object with the tool's parameters, each of the type its schema gives.");
    }

    @Test
    void argumentsThatParseStrictlyStillGetAnExpectedHint() {
        Exception raw = new ToolArgumentsException(new IllegalArgumentException("conversion failed"));
        assertThat(handler.handle(raw.getCause(), context("read_file", "{\"path\":\"/ws/a\"}", raw)).text())
                .startsWith("Error: Invalid input: the arguments could not be used. Expected a JSON object for "
                        + "read_file like ");
    }
}
