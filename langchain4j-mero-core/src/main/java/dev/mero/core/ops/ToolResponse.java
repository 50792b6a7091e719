package dev.mero.core.ops;

import dev.mero.core.catalogue.ToolDescriptor;

import dev.mero.core.MeroToolsException;
import java.util.Objects;
import java.util.Optional;

/**
 * What one tool call gives the model: its text and whether that text reports an error. Every binding
 * (LangChain4j, Spring AI, MCP) hands on exactly this, so the same call reads the same everywhere:
 * <ul>
 *   <li>a result: the operation's text, between data markers ({@link UntrustedContent}) when the tool's
 *       descriptor says its output carries file text, names or command output;</li>
 *   <li>a refusal or an ordinary failure: {@code Denied: ...} / {@code Error: ...}
 *       ({@link MeroToolsException#toModelText()}), with {@link #isError()} set.</li>
 * </ul>
 * Built by {@link MeroOperations#respond(String, String)}. Immutable and thread-safe.
 */
public final class ToolResponse {

    private final String text;
    private final String unmarkedText;
    private final MeroToolsException failure;

    private ToolResponse(String text, String unmarkedText, MeroToolsException failure) {
        this.text = text;
        this.unmarkedText = unmarkedText;
        this.failure = failure;
    }

    /**
     * The response of a call that ran: the text, marked as data when the tool's output is untrusted.
     *
     * @param tool the tool that ran
     * @param text what the operation returned
     * @return the response
     */
    public static ToolResponse success(ToolDescriptor tool, String text) {
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(text, "text");
        return new ToolResponse(tool.untrustedOutput() ? UntrustedContent.wrap(tool.name(), text) : text, text, null);
    }

    /**
     * The response of a call the library refused or that failed for an ordinary reason.
     *
     * @param failure the library's exception
     * @return the error response, {@code Denied: ...} or {@code Error: ...}
     */
    public static ToolResponse failure(MeroToolsException failure) {
        String text = Objects.requireNonNull(failure, "failure").toModelText();
        return new ToolResponse(text, text, failure);
    }

    /**
     * The text for the model.
     *
     * @return the result (between data markers when untrusted), or {@code Denied: ...} / {@code Error: ...}
     */
    public String text() {
        return text;
    }

    /**
     * The text without data markers, for a binding configured not to mark untrusted content.
     *
     * @return {@link #text()} without the markers
     */
    public String unmarkedText() {
        return unmarkedText;
    }

    /**
     * Tells whether the call was refused or failed: the tool-result error flag of every binding.
     *
     * @return {@code true} for {@code Denied: ...} and {@code Error: ...}
     */
    public boolean isError() {
        return failure != null;
    }

    /**
     * The library's exception behind an error response, for a binding that reports errors by throwing.
     *
     * @return the exception, or empty for a result
     */
    public Optional<MeroToolsException> failure() {
        return Optional.ofNullable(failure);
    }

    /**
     * The machine-readable code of an error response, e.g. {@code path_denied} or {@code approval_timeout}.
     *
     * @return the code, or empty for a result
     */
    public Optional<String> errorCode() {
        return failure().map(MeroToolsException::errorCode);
    }

    @Override
    public String toString() {
        return "ToolResponse{" + (isError() ? "error " + failure.errorCode() + ": " : "") + text + "}";
    }
}
