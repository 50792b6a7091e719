package dev.mero.tools;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.invocation.InvocationParameters;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.mero.core.MeroToolsException;
import dev.mero.core.SecurityContext;
import dev.mero.core.error.ToolFailures;
import dev.mero.core.ops.MeroOperations;
import dev.mero.core.ops.ToolResponse;
import dev.mero.core.replay.ReplayStore;
import dev.mero.core.replay.ToolCallReplays;

import java.util.Objects;
import java.util.Optional;

/**
 * The executor of one annotated {@code @Tool} method, wrapped so that its call claims the tool-call id in the
 * context's {@link ReplayStore} first: LangChain4j hands a {@code @Tool} method its arguments, memory id and
 * invocation parameters but never the request's id, while the executor around the method receives the whole
 * {@link ToolExecutionRequest}. A repeated id returns the first result, whichever instance ran it. Calls
 * without an id, of the catalogue's read-only tools, or in a context without a replay store simply run.
 *
 * <p>A refusal the method throws ({@link MeroToolsException}) is recorded and returned as its model text,
 * flagged as an error, exactly as {@link MeroToolExecutionErrorHandler} would answer it; any other exception
 * is a bug and propagates. Thread-safe.
 */
final class ReplayedToolExecutor implements ToolExecutor {

    private final MeroOperations operations;
    private final ToolExecutor method;

    ReplayedToolExecutor(MeroOperations operations, ToolExecutor method) {
        this.operations = Objects.requireNonNull(operations, "operations");
        this.method = Objects.requireNonNull(method, "method");
    }

    @Override
    public String execute(ToolExecutionRequest request, Object memoryId) {
        return method.execute(request, memoryId); // LangChain4j's AI services call executeWithContext
    }

    @Override
    public ToolExecutionResult executeWithContext(ToolExecutionRequest request, InvocationContext context) {
        String id = request.id();
        boolean readOnly = operations.catalogue().find(request.name())
                .map(tool -> tool.hints().readOnly()).orElse(false);
        SecurityContext security = operations.context();
        Optional<ReplayStore> store = id == null || id.isBlank() || readOnly ? Optional.empty()
                : security.replayStore();
        if (store.isEmpty()) {
            return method.executeWithContext(request, context);
        }
        InvocationParameters parameters = context == null ? null : context.invocationParameters();
        String scope = ToolCallReplays.scope(security.lineage(), context == null ? null : context.chatMemoryId(),
                CallerOperations.identity(parameters), request.name(), request.arguments());
        ToolCallReplays.Result result = ToolCallReplays.run(store.get(), scope, id, ToolCallReplays.DEFAULT_WAIT,
                () -> run(request, context));
        return ToolExecutionResult.builder().isError(result.error()).resultText(result.text()).build();
    }

    private ToolCallReplays.Result run(ToolExecutionRequest request, InvocationContext context) {
        try {
            ToolExecutionResult result = method.executeWithContext(request, context);
            return new ToolCallReplays.Result(result.resultText(), result.isError());
        } catch (RuntimeException e) {
            Optional<MeroToolsException> decision = ToolFailures.decision(e);
            if (decision.isPresent()) {
                return new ToolCallReplays.Result(ToolResponse.failure(decision.get()).text(), true);
            }
            throw e;
        }
    }
}
