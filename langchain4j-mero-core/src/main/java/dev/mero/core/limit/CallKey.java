package dev.mero.core.limit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.mero.core.path.ContentDigest;
import dev.mero.core.message.Messages;

import java.util.Objects;

/**
 * The fingerprint of one call: the operation's name and a SHA-256 digest of its arguments. Two calls with
 * the same key are the same call repeated, which is what a {@link RetryBudget} counts.
 *
 * <p>Only the digest of the arguments is kept, so a key costs a few dozen bytes however large the arguments
 * (a file's content, for example) are, and holds nothing sensitive. Instances are immutable.
 */
public final class CallKey {

    /** The longest operation name accepted, in characters. */
    public static final int MAX_OPERATION_LENGTH = 200;

    private static final ObjectMapper CANONICAL = JsonMapper.builder()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            // '{"a":1} junk' must not collapse onto '{"a":1}'
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private final String operation;
    private final String digest;

    private CallKey(String operation, String digest) {
        this.operation = operation;
        this.digest = digest;
    }

    /**
     * The key of a call whose arguments are already in a canonical text form: the same arguments must always
     * give the same text.
     *
     * @param operation the operation (tool) name, non-blank, without control characters
     * @param arguments the arguments' text, possibly empty
     * @return the key
     * @throws IllegalArgumentException if the operation name is blank, too long or has control characters
     */
    public static CallKey of(String operation, String arguments) {
        Objects.requireNonNull(arguments, "arguments");
        return new CallKey(validOperation(operation), ContentDigest.of(operation + '\u0000' + arguments));
    }

    /**
     * The key of a call whose arguments are a JSON object, such as the arguments a model sends with a tool
     * call. Object keys are sorted and whitespace is dropped first, so {@code {"b":1, "a":2}} and
     * {@code {"a":2,"b":1}} give the same key. Text that is not valid JSON is used as it is.
     *
     * @param operation     the operation (tool) name, non-blank, without control characters
     * @param jsonArguments the arguments as JSON
     * @return the key
     * @throws IllegalArgumentException if the operation name is blank, too long or has control characters
     */
    public static CallKey ofJson(String operation, String jsonArguments) {
        Objects.requireNonNull(jsonArguments, "jsonArguments");
        return of(operation, canonicalJson(jsonArguments));
    }

    /**
     * The operation (tool) name.
     *
     * @return the name
     */
    public String operation() {
        return operation;
    }

    /**
     * The SHA-256 digest of the operation name and the arguments, in lower-case hex.
     *
     * @return 64 hex digits
     */
    public String digest() {
        return digest;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CallKey that && operation.equals(that.operation) && digest.equals(that.digest);
    }

    @Override
    public int hashCode() {
        return digest.hashCode();
    }

    @Override
    public String toString() {
        return "CallKey{operation=" + Messages.quote(operation) + ", digest=" + digest.substring(0, 12) + "}";
    }

    private static String validOperation(String operation) {
        if (operation == null || operation.isBlank() || operation.length() > MAX_OPERATION_LENGTH
                || operation.codePoints().anyMatch(Messages::isControlOrInvisible)) {
            throw new IllegalArgumentException("Invalid operation name "
                    + (operation == null || operation.length() <= MAX_OPERATION_LENGTH
                    ? Messages.quote(operation) : "of " + operation.length() + " characters")
                    + ": give a non-blank name of at most " + MAX_OPERATION_LENGTH
                    + " characters without control characters");
        }
        return operation;
    }

    private static String canonicalJson(String json) {
        try {
            return CANONICAL.writeValueAsString(CANONICAL.readValue(json, Object.class));
        } catch (JsonProcessingException notJson) {
            return json; // not JSON: the raw text still identifies the call, only less forgivingly
        }
    }
}
