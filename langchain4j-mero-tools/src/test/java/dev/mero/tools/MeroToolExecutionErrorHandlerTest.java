package dev.mero.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.exception.LangChain4jException;
import dev.langchain4j.exception.ToolExecutionException;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.ToolErrorContext;
import dev.mero.core.InvalidInputException;
import dev.mero.core.OperationFailedException;
import dev.mero.core.PathAccessDeniedException;
import dev.mero.core.PermissionDeniedException;
import dev.mero.core.error.ToolError;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class MeroToolExecutionErrorHandlerTest {

    private final MeroToolExecutionErrorHandler handler = MeroToolExecutionErrorHandler.create();

    /** The context LangChain4j builds: rawError is what the tool threw. */
    private static ToolErrorContext context(Exception rawError) {
        return ToolErrorContext.builder()
                .toolExecutionRequest(ToolExecutionRequest.builder().id("1").name("read_file").arguments("{}").build())
                .invocationContext(InvocationContext.builder()
                        .invocationId(UUID.randomUUID())
                        .interfaceName("Agent")
                        .methodName("chat")
                        .chatMemoryId("default")
                        .timestampNow()
                        .build())
                .rawError(rawError)
                .build();
    }

    /** How LangChain4j calls the handler for an @Tool method: error = cause of the wrapper. */
    private String handleAsToolMethod(Exception thrownByMethod) {
        ToolExecutionException wrapper = new ToolExecutionException(thrownByMethod);
        return handler.handle(thrownByMethod, context(wrapper)).text();
    }

    @Test
    void denialBecomesDeniedText() {
        assertThat(handleAsToolMethod(new PermissionDeniedException("Context 'w' lacks permission(s) ['DELETE'] "
                + "(has: ['READ'])."))).isEqualTo("Denied: Context 'w' lacks permission(s) ['DELETE'] (has: ['READ']).");
    }

    @Test
    void ordinaryFailuresBecomeErrorText() {
        assertThat(handleAsToolMethod(new OperationFailedException("'/ws/x' is not a file or does not exist.")))
                .isEqualTo("Error: '/ws/x' is not a file or does not exist.");
        assertThat(handleAsToolMethod(new InvalidInputException("The path is empty.")))
                .isEqualTo("Error: The path is empty.");
    }

    @Test
    void causeOfADenialIsNeverShown() {
        // a custom ToolExecutor throws the denial itself: LangChain4j passes its CAUSE as `error`
        PathAccessDeniedException denied = new PathAccessDeniedException("rm is blocked.",
                new IOException("policy-internal /etc/mero/rules.yaml"));

        String text = handler.handle(denied.getCause(), context(denied)).text();

        assertThat(text).isEqualTo("Denied: rm is blocked.");
    }

    @Test
    void aBugThatCarriesADenialPropagatesAsTheBug() {
        PathAccessDeniedException denied = new PathAccessDeniedException("no.");
        RuntimeException bug = new RuntimeException("wrapper", new IllegalStateException("inner", denied));

        assertThatThrownBy(() -> handleAsToolMethod(bug)).isSameAs(bug);
        // a custom executor throwing the bug itself: rawError is the bug, error its cause
        assertThatThrownBy(() -> handler.handle(bug.getCause(), context(bug))).isSameAs(bug);
    }

    @Test
    void anIOExceptionCarryingADecisionIsABug() {
        IOException bug = new IOException("disk", new OperationFailedException("boom."));

        assertThatThrownBy(() -> handleAsToolMethod(bug))
                .isInstanceOf(ToolExecutionException.class)
                .hasCause(bug);
    }

    @Test
    void anAssertionErrorCarryingADecisionIsABug() {
        AssertionError bug = new AssertionError("broken invariant", new PermissionDeniedException("no."));

        assertThatThrownBy(() -> handler.handle(bug, context(new ToolExecutionException(bug)))).isSameAs(bug);
    }

    @Test
    void reflectionAndLangChain4jWrappersAreRemoved() {
        PermissionDeniedException denied = new PermissionDeniedException("no.");
        ToolExecutionException raw = new ToolExecutionException(new InvocationTargetException(
                new LangChain4jException("wrapped", denied)));

        assertThat(handler.handle(raw.getCause(), context(raw)).text()).isEqualTo("Denied: no.");
    }

    @Test
    void classifiesEveryThrowableLikeToolError() {
        PermissionDeniedException denied = new PermissionDeniedException("no.");
        List<Exception> raws = List.of(
                new ToolExecutionException(denied),
                new ToolExecutionException(new RuntimeException(denied)),
                new ToolExecutionException(new IOException(denied)),
                new InvocationTargetException(new InvocationTargetException(denied)),
                new RuntimeException(denied),
                denied,
                new ToolExecutionException("no cause"),
                new OperationFailedException("boom."));
        for (Exception raw : raws) {
            ToolError structured = ToolError.from(raw);
            String text;
            try {
                text = handler.handle(raw.getCause() != null ? raw.getCause() : raw, context(raw)).text();
            } catch (RuntimeException | Error propagated) {
                text = null;
            }
            assertThat(text == null).as("%s propagates exactly when ToolError calls it internal", raw)
                    .isEqualTo(structured.errorCode().equals("internal_error"));
            if (text != null) {
                assertThat(text).endsWith(structured.message());
            }
        }
    }

    @Test
    void foundFromErrorWhenTheContextHasNoRawError() {
        assertThat(handler.handle(new OperationFailedException("boom."), null).text()).isEqualTo("Error: boom.");
    }

    @Test
    void runtimeBugIsRethrownAsItIs() {
        NullPointerException bug = new NullPointerException("real bug");

        assertThatThrownBy(() -> handler.handle(bug, context(new ToolExecutionException(bug)))).isSameAs(bug);
    }

    @Test
    void errorIsRethrownAsItIs() {
        StackOverflowError fatal = new StackOverflowError();

        assertThatThrownBy(() -> handler.handle(fatal, context(new ToolExecutionException(fatal)))).isSameAs(fatal);
    }

    @Test
    void checkedBugIsWrappedUnchecked() {
        IOException disk = new IOException("disk on fire");

        assertThatThrownBy(() -> handler.handle(disk, context(new ToolExecutionException(disk))))
                .isInstanceOf(ToolExecutionException.class)
                .hasMessage("Tool 'read_file' failed: java.io.IOException: disk on fire")
                .hasCause(disk);
    }

    @Test
    void cyclicCauseChainTerminates() {
        IllegalStateException a = new IllegalStateException("a");
        IllegalArgumentException b = new IllegalArgumentException("b", a);
        a.initCause(b);

        // the executor threw b: that is what propagates
        assertThatThrownBy(() -> handler.handle(a, context(b))).isSameAs(b);
    }

    @Test
    void createReturnsASharedInstance() {
        assertThat(MeroToolExecutionErrorHandler.create()).isSameAs(MeroToolExecutionErrorHandler.create());
    }
}
