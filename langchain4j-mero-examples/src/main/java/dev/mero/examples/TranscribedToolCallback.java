package dev.mero.examples;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.metadata.ToolMetadata;

/** A Spring AI tool callback that shows each call and its result in the transcript; it changes nothing. */
final class TranscribedToolCallback implements ToolCallback {

    private final ToolCallback delegate;
    private final Transcript transcript;

    /**
     * Wraps a callback.
     *
     * @param delegate   the callback that does the work
     * @param transcript where calls are shown
     */
    TranscribedToolCallback(ToolCallback delegate, Transcript transcript) {
        this.delegate = delegate;
        this.transcript = transcript;
    }

    @Override
    public ToolDefinition getToolDefinition() {
        return delegate.getToolDefinition();
    }

    @Override
    public ToolMetadata getToolMetadata() {
        return delegate.getToolMetadata();
    }

    @Override
    public String call(String toolInput) {
        return call(toolInput, null);
    }

    @Override
    public String call(String toolInput, ToolContext toolContext) {
        transcript.toolCall(null, getToolDefinition().name(), toolInput);
        String result = delegate.call(toolInput, toolContext);
        transcript.toolResult(result, result.startsWith("Denied: ") || result.startsWith("Error: "));
        return result;
    }
}
