package dev.mero.core.error;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.mero.core.MeroToolsException;
import dev.mero.core.message.Messages;
import dev.mero.core.RateLimitedException;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The structured form of a failed tool call, for hosts that return errors as data rather than text:
 *
 * <pre>{@code
 * {"error_code":"scope_denied",
 *  "message":"Context 'worker_1' lacks scope 'files:file:write' (has: ['files:*:read']). Ask for ...",
 *  "status":403,"retry":false,"retry_after_seconds":null,
 *  "detail":"Caller error: retrying without changing the request won't help. ..."}
 * }</pre>
 *
 * <p>{@link #from(Throwable)} maps every exception: a {@link MeroToolsException} keeps its code and its
 * model-facing message, and its {@link ErrorCode#guidance() guidance} becomes the detail; anything else is a
 * bug and becomes {@code internal_error} with a fixed message that never repeats the exception's message, its
 * type or its stack trace, which could reveal paths or secrets. {@link #toJson()} always writes all six keys,
 * in the order above, with {@code null} for absent values, so a reader never has to guess whether a key was
 * forgotten.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class ToolError {

    /** The message of every {@code internal_error} made from a non-library exception. */
    public static final String INTERNAL_ERROR_MESSAGE =
            "The tool failed because of an unexpected internal error; its details are withheld from this message.";

    /** The largest JSON text {@link #fromJson(String)} reads, in characters. */
    public static final int MAX_JSON_LENGTH = 64 * 1024;

    private static final Pattern CODE = Pattern.compile("[a-z][a-z0-9_]{0,63}");
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final String errorCode;
    private final String message;
    private final int status;
    private final boolean retry;
    private final Integer retryAfterSeconds;
    private final String detail;

    private ToolError(Builder builder) {
        if (builder.errorCode == null || !CODE.matcher(builder.errorCode).matches()) {
            throw new IllegalArgumentException("Invalid error code " + Messages.quote(builder.errorCode)
                    + ": use lower-case snake_case such as 'invalid_input'");
        }
        if (builder.message == null || builder.message.isBlank()) {
            throw new IllegalArgumentException("ToolError " + Messages.quote(builder.errorCode)
                    + " needs a non-blank message");
        }
        if (builder.status == null || builder.status < 100 || builder.status > 599) {
            throw new IllegalArgumentException("ToolError " + Messages.quote(builder.errorCode)
                    + " needs an HTTP-style status from 100 to 599, was " + builder.status);
        }
        if (builder.retryAfterSeconds != null && builder.retryAfterSeconds < 0) {
            throw new IllegalArgumentException("retryAfterSeconds must not be negative, was "
                    + builder.retryAfterSeconds);
        }
        this.errorCode = builder.errorCode;
        this.message = builder.message;
        this.status = builder.status;
        this.retry = builder.retry;
        this.retryAfterSeconds = builder.retryAfterSeconds;
        this.detail = builder.detail;
    }

    /**
     * Starts a builder; start with {@link Builder#errorCode(ErrorCode)} to take a code's defaults.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * An error with a code's status, retry flag, default {@code retry_after_seconds} and guidance as detail.
     *
     * @param code    the code
     * @param message what went wrong and what to do next
     * @return the error
     */
    public static ToolError of(ErrorCode code, String message) {
        return builder().errorCode(code).message(message).build();
    }

    /**
     * Maps any exception to the error a caller sees.
     * <ul>
     *   <li>A {@link MeroToolsException} thrown by the tool, once the wrappers that reflection and the agent
     *       framework add are removed ({@link ToolFailures#decision(Throwable)}, the classification the tool
     *       bindings use too), gives the code and the message; a code this enum does not know keeps its text and takes the
     *       status of {@link ErrorCode#DENIED} for a denial or {@link ErrorCode#OPERATION_FAILED} otherwise.</li>
     *   <li>A {@link RateLimitedException} also gives {@code retry_after_seconds}.</li>
     *   <li>Anything else, including a bug that carries a library exception as its cause, gives
     *       {@code internal_error} with {@link #INTERNAL_ERROR_MESSAGE}.</li>
     * </ul>
     *
     * @param failure the exception
     * @return the error
     */
    public static ToolError from(Throwable failure) {
        Objects.requireNonNull(failure, "failure");
        MeroToolsException mero = ToolFailures.decision(failure).orElse(null);
        if (mero == null) {
            return of(ErrorCode.INTERNAL_ERROR, INTERNAL_ERROR_MESSAGE);
        }
        ErrorCode fallback = mero.isDenial() ? ErrorCode.DENIED : ErrorCode.OPERATION_FAILED;
        ErrorCode known = ErrorCode.fromCode(mero.errorCode()).orElse(fallback);
        Builder error = builder().errorCode(known).message(modelMessage(mero, known));
        if (known == fallback && mero.errorCode() != null && CODE.matcher(mero.errorCode()).matches()) {
            error.errorCode(mero.errorCode());
        }
        if (mero instanceof RateLimitedException limited) {
            error.retryAfterSeconds(limited.retryAfterSeconds());
        }
        return error.build();
    }

    /**
     * Reads an error written by {@link #toJson()}. Unknown keys are ignored; {@code retry_after_seconds} and
     * {@code detail} may be missing or {@code null}.
     *
     * @param json the JSON object
     * @return the error
     * @throws IllegalArgumentException if the text is not such an object, is longer than
     *                                  {@value #MAX_JSON_LENGTH} characters, or holds invalid values
     */
    public static ToolError fromJson(String json) {
        Objects.requireNonNull(json, "json");
        if (json.length() > MAX_JSON_LENGTH) {
            throw new IllegalArgumentException("ToolError JSON of " + json.length() + " characters is longer than "
                    + MAX_JSON_LENGTH);
        }
        JsonNode node;
        try {
            node = JSON.readTree(json);
        } catch (JsonProcessingException malformed) {
            throw new IllegalArgumentException("ToolError JSON is malformed: " + malformed.getOriginalMessage(),
                    malformed);
        }
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("ToolError JSON must be an object");
        }
        Predicate<JsonNode> isInt = value -> value.isIntegralNumber() && value.canConvertToInt();
        JsonNode retryAfter = optional(node, "retry_after_seconds", isInt);
        JsonNode detail = optional(node, "detail", JsonNode::isTextual);
        return builder()
                .errorCode(required(node, "error_code", JsonNode::isTextual).asText())
                .message(required(node, "message", JsonNode::isTextual).asText())
                .status(required(node, "status", isInt).asInt())
                .retry(required(node, "retry", JsonNode::isBoolean).asBoolean())
                .retryAfterSeconds(retryAfter == null ? null : retryAfter.asInt())
                .detail(detail == null ? null : detail.asText())
                .build();
    }

    /**
     * The machine-readable code, e.g. {@code scope_denied}.
     *
     * @return the code
     */
    public String errorCode() {
        return errorCode;
    }

    /**
     * What went wrong and what to do next, for a person or a model.
     *
     * @return the message
     */
    public String message() {
        return message;
    }

    /**
     * The HTTP-style status.
     *
     * @return the status
     */
    public int status() {
        return status;
    }

    /**
     * Whether the caller should retry.
     *
     * @return {@code true} for transient errors
     */
    public boolean retry() {
        return retry;
    }

    /**
     * Seconds to wait before retrying, when known.
     *
     * @return the seconds, or {@code null}
     */
    public Integer retryAfterSeconds() {
        return retryAfterSeconds;
    }

    /**
     * Extra context, by default what to do next.
     *
     * @return the detail, or {@code null}
     */
    public String detail() {
        return detail;
    }

    /**
     * The JSON envelope with the keys {@code error_code, message, status, retry, retry_after_seconds, detail},
     * in that order, absent values written as {@code null}.
     *
     * @return compact JSON
     */
    public String toJson() {
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("error_code", errorCode);
        envelope.put("message", message);
        envelope.put("status", status);
        envelope.put("retry", retry);
        envelope.put("retry_after_seconds", retryAfterSeconds);
        envelope.put("detail", detail);
        try {
            return JSON.writeValueAsString(envelope);
        } catch (JsonProcessingException impossible) {
            throw new IllegalStateException("Strings, numbers and booleans always serialise", impossible);
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ToolError that && status == that.status && retry == that.retry
                && errorCode.equals(that.errorCode) && message.equals(that.message)
                && Objects.equals(retryAfterSeconds, that.retryAfterSeconds) && Objects.equals(detail, that.detail);
    }

    @Override
    public int hashCode() {
        return Objects.hash(errorCode, message, status, retry, retryAfterSeconds, detail);
    }

    /**
     * The same text as {@link #toJson()}.
     *
     * @return the JSON envelope
     */
    @Override
    public String toString() {
        return toJson();
    }

    /** The first library exception in the cause chain; the depth bound also ends a cyclic chain. */
    private static String modelMessage(MeroToolsException mero, ErrorCode code) {
        String text = mero.getMessage();
        if (text == null || text.isBlank()) {
            return mero.isDenial() ? "The action was denied (" + code.code() + ")." : "The action failed.";
        }
        return text;
    }

    private static JsonNode required(JsonNode node, String key, Predicate<JsonNode> type) {
        JsonNode value = optional(node, key, type);
        if (value == null) {
            throw new IllegalArgumentException("ToolError JSON lacks " + Messages.quote(key));
        }
        return value;
    }

    private static JsonNode optional(JsonNode node, String key, Predicate<JsonNode> type) {
        JsonNode value = node.get(key);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!type.test(value)) {
            throw new IllegalArgumentException("ToolError JSON has an invalid " + Messages.quote(key) + ": "
                    + value.getNodeType().name().toLowerCase(Locale.ROOT));
        }
        return value;
    }

    /** Builds a {@link ToolError}. */
    public static final class Builder {

        private String errorCode;
        private String message;
        private Integer status;
        private boolean retry;
        private Integer retryAfterSeconds;
        private String detail;

        private Builder() {
        }

        /**
         * Sets a known code and takes its status, retry flag, default {@code retry_after_seconds} and guidance
         * (as detail); call it first, later calls override these defaults.
         *
         * @param code the code
         * @return this builder
         */
        public Builder errorCode(ErrorCode code) {
            Objects.requireNonNull(code, "code");
            this.errorCode = code.code();
            this.status = code.status();
            this.retry = code.retry();
            this.retryAfterSeconds = code.retryAfterSeconds();
            this.detail = code.guidance();
            return this;
        }

        /**
         * Sets the code's text only, e.g. a code of the host's own; set the status too.
         *
         * @param errorCode lower-case snake_case
         * @return this builder
         */
        public Builder errorCode(String errorCode) {
            this.errorCode = errorCode;
            return this;
        }

        /**
         * Sets the message: what went wrong and what to do next.
         *
         * @param message non-blank
         * @return this builder
         */
        public Builder message(String message) {
            this.message = message;
            return this;
        }

        /**
         * Sets the HTTP-style status.
         *
         * @param status 100 to 599
         * @return this builder
         */
        public Builder status(int status) {
            this.status = status;
            return this;
        }

        /**
         * Sets whether the caller should retry (default {@code false}).
         *
         * @param retry the flag
         * @return this builder
         */
        public Builder retry(boolean retry) {
            this.retry = retry;
            return this;
        }

        /**
         * Sets the seconds to wait before retrying.
         *
         * @param retryAfterSeconds non-negative, or {@code null} for none
         * @return this builder
         */
        public Builder retryAfterSeconds(Integer retryAfterSeconds) {
            this.retryAfterSeconds = retryAfterSeconds;
            return this;
        }

        /**
         * Sets the extra context.
         *
         * @param detail the detail, or {@code null} for none
         * @return this builder
         */
        public Builder detail(String detail) {
            this.detail = detail;
            return this;
        }

        /**
         * Builds the error.
         *
         * @return the error
         * @throws IllegalArgumentException if the code is not snake_case, the message is blank or the status
         *                                  is missing or out of range
         */
        public ToolError build() {
            return new ToolError(this);
        }
    }
}
