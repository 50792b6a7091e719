package dev.mero.core.ops;

import dev.mero.core.catalogue.ParameterType;
import dev.mero.core.catalogue.ToolDescriptor;
import dev.mero.core.catalogue.ToolParameter;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.mero.core.InvalidInputException;
import dev.mero.core.message.Messages;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The validated arguments of one tool call. Arguments are checked strictly against the tool's
 * {@link ToolDescriptor}: unknown keys, missing required ones, values of the wrong JSON type (an object, an
 * array or a number where a string belongs; a string where an integer belongs) and trailing content are
 * refused with an {@link InvalidInputException} reading
 * {@code Invalid input: <what>. Expected <how to call the tool>}, never coerced. A {@code null} value counts
 * as absent. Immutable.
 */
public final class ToolArguments {

    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private final ToolDescriptor tool;
    private final Map<String, Object> values;

    private ToolArguments(ToolDescriptor tool, Map<String, Object> values) {
        this.tool = tool;
        this.values = Collections.unmodifiableMap(values);
    }

    /**
     * Parses the JSON object text a model sent.
     *
     * @param tool the tool called
     * @param json the arguments; {@code null} or blank counts as {@code {}}
     * @return the validated arguments
     * @throws InvalidInputException if the text is not a JSON object matching the tool's parameters
     */
    public static ToolArguments parse(ToolDescriptor tool, String json) {
        Objects.requireNonNull(tool, "tool");
        if (json == null || json.isBlank()) {
            return of(tool, Map.of());
        }
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw invalid(tool, "the arguments are not valid JSON (" + reason(e) + ")", e);
        }
        if (root == null || root.isMissingNode()) {
            return of(tool, Map.of());
        }
        if (!root.isObject()) {
            throw invalid(tool, "the arguments are a JSON " + jsonType(root) + ", not an object");
        }
        Map<String, Object> values = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> field : root.properties()) {
            ToolParameter parameter = known(tool, field.getKey());
            JsonNode node = field.getValue();
            if (node.isNull()) {
                continue;
            }
            values.put(parameter.name(), fromJson(tool, parameter, node));
        }
        return checked(tool, values);
    }

    /**
     * Checks already-decoded values: {@link String}, {@link Integer} (or another integral number that fits an
     * {@code int}), {@link Boolean}, any {@link Number} for a {@code number}, a {@link List} for an
     * {@code array} and a {@link Map} for an {@code object}; {@code null} means absent.
     *
     * @param tool   the tool called
     * @param values the arguments by JSON name
     * @return the validated arguments
     * @throws InvalidInputException if a value is unknown, missing or of the wrong type
     */
    public static ToolArguments of(ToolDescriptor tool, Map<String, ?> values) {
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(values, "values");
        Map<String, Object> checked = new LinkedHashMap<>();
        for (Map.Entry<String, ?> entry : values.entrySet()) {
            ToolParameter parameter = known(tool, entry.getKey());
            Object value = entry.getValue();
            if (value != null) {
                checked.put(parameter.name(), fromJava(tool, parameter, value));
            }
        }
        return checked(tool, checked);
    }

    /**
     * The tool these arguments were checked against.
     *
     * @return the descriptor
     */
    public ToolDescriptor tool() {
        return tool;
    }

    /**
     * A required string argument.
     *
     * @param name the JSON name
     * @return the value
     * @throws InvalidInputException if it is absent (possible only when the parameter is optional)
     */
    public String string(String name) {
        return optionalString(name).orElseThrow(() -> invalid(tool, "the argument " + Messages.quote(name)
                + " is missing"));
    }

    /**
     * An optional string argument.
     *
     * @param name the JSON name
     * @return the value, or empty
     */
    public Optional<String> optionalString(String name) {
        return Optional.ofNullable((String) typed(name, ParameterType.STRING));
    }

    /**
     * An optional integer argument.
     *
     * @param name the JSON name
     * @return the value, or empty
     */
    public OptionalInt optionalInt(String name) {
        Integer value = (Integer) typed(name, ParameterType.INTEGER);
        return value == null ? OptionalInt.empty() : OptionalInt.of(value);
    }

    /**
     * An optional boolean argument.
     *
     * @param name the JSON name
     * @return the value, or empty
     */
    public Optional<Boolean> optionalBoolean(String name) {
        return Optional.ofNullable((Boolean) typed(name, ParameterType.BOOLEAN));
    }

    /**
     * The given arguments by JSON name, in the order given, without absent ones.
     *
     * @return an immutable map
     */
    public Map<String, Object> asMap() {
        return values;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ToolArguments other && tool.name().equals(other.tool.name())
                && values.equals(other.values);
    }

    @Override
    public int hashCode() {
        return tool.name().hashCode() * 31 + values.hashCode();
    }

    @Override
    public String toString() {
        return tool.name() + values.keySet();
    }

    /**
     * The invalid-input failure every binding shows the model for arguments that do not fit a tool.
     *
     * @param tool the tool called
     * @param what what is wrong, e.g. {@code the argument 'path' is missing}
     * @return the exception, reading {@code Invalid input: <what>. Expected <hint>}
     */
    public static InvalidInputException invalid(ToolDescriptor tool, String what) {
        return invalid(tool, what, null);
    }

    private static InvalidInputException invalid(ToolDescriptor tool, String what, Throwable cause) {
        return new InvalidInputException("Invalid input: " + what + ". Expected " + tool.argumentHint() + ".", cause);
    }

    private Object typed(String name, ParameterType type) {
        ToolParameter parameter = tool.parameter(name);
        if (parameter == null || parameter.type() != type) {
            throw new IllegalArgumentException("Tool '" + tool.name() + "' has no " + type.jsonType()
                    + " parameter '" + name + "'");
        }
        return values.get(name);
    }

    private static ToolArguments checked(ToolDescriptor tool, Map<String, Object> values) {
        for (ToolParameter parameter : tool.parameters()) {
            if (parameter.required() && !values.containsKey(parameter.name())) {
                throw invalid(tool, "the argument " + Messages.quote(parameter.name()) + " is missing");
            }
        }
        return new ToolArguments(tool, values);
    }

    private static ToolParameter known(ToolDescriptor tool, String name) {
        ToolParameter parameter = tool.parameter(name);
        if (parameter == null) {
            throw invalid(tool, "unknown argument " + Messages.quote(name));
        }
        return parameter;
    }

    private static Object fromJson(ToolDescriptor tool, ToolParameter parameter, JsonNode node) {
        switch (parameter.type()) {
            case STRING:
                if (node.isTextual()) {
                    return node.textValue();
                }
                break;
            case INTEGER:
                if (node.isIntegralNumber()) {
                    return toInt(tool, parameter, node.bigIntegerValue());
                }
                break;
            case BOOLEAN:
                if (node.isBoolean()) {
                    return node.booleanValue();
                }
                break;
            case NUMBER:
                if (node.isNumber()) {
                    return node.doubleValue();
                }
                break;
            case ARRAY:
                if (node.isArray()) {
                    return Collections.unmodifiableList(JSON.convertValue(node, List.class));
                }
                break;
            case OBJECT:
                if (node.isObject()) {
                    return Collections.unmodifiableMap(JSON.convertValue(node, Map.class));
                }
                break;
            default:
                break;
        }
        throw wrongType(tool, parameter, jsonType(node));
    }

    private static Object fromJava(ToolDescriptor tool, ToolParameter parameter, Object value) {
        switch (parameter.type()) {
            case STRING:
                if (value instanceof String) {
                    return value;
                }
                break;
            case INTEGER:
                if (value instanceof Integer || value instanceof Long || value instanceof Short
                        || value instanceof Byte || value instanceof BigInteger) {
                    return toInt(tool, parameter, new BigInteger(value.toString()));
                }
                break;
            case BOOLEAN:
                if (value instanceof Boolean) {
                    return value;
                }
                break;
            case NUMBER:
                if (value instanceof Number number) {
                    return number.doubleValue();
                }
                break;
            case ARRAY:
                if (value instanceof List<?> list) {
                    return Collections.unmodifiableList(new ArrayList<>(list));
                }
                break;
            case OBJECT:
                if (value instanceof Map<?, ?> map) {
                    return Collections.unmodifiableMap(new LinkedHashMap<>(map));
                }
                break;
            default:
                break;
        }
        throw wrongType(tool, parameter, javaType(value));
    }

    private static Integer toInt(ToolDescriptor tool, ToolParameter parameter, BigInteger value) {
        if (value.bitLength() > 31) {
            throw invalid(tool, "the argument " + Messages.quote(parameter.name()) + " is " + value
                    + ", which is out of range");
        }
        return value.intValue();
    }

    private static InvalidInputException wrongType(ToolDescriptor tool, ToolParameter parameter, String actual) {
        return invalid(tool, "the argument " + Messages.quote(parameter.name()) + " must be a JSON "
                + parameter.type().jsonType() + ", not " + actual);
    }

    private static String jsonType(JsonNode node) {
        if (node.isTextual()) {
            return "string";
        }
        if (node.isIntegralNumber()) {
            return "integer";
        }
        if (node.isNumber()) {
            return "number with a fraction";
        }
        if (node.isBoolean()) {
            return "boolean";
        }
        if (node.isArray()) {
            return "array";
        }
        if (node.isObject()) {
            return "object";
        }
        return "null";
    }

    private static String javaType(Object value) {
        if (value instanceof CharSequence) {
            return "string";
        }
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte
                || value instanceof BigInteger) {
            return "integer"; // the words the JSON path uses, so that every binding reads the same
        }
        if (value instanceof Number) {
            return "number with a fraction";
        }
        if (value instanceof Boolean) {
            return "boolean";
        }
        if (value instanceof Map) {
            return "object";
        }
        if (value instanceof Iterable || value.getClass().isArray()) {
            return "array";
        }
        return "object";
    }

    private static String reason(JsonProcessingException e) {
        String message = e.getOriginalMessage();
        if (message == null) {
            return "malformed";
        }
        // Jackson's own words, without the source excerpt; cut so a huge input never comes back
        String firstLine = message.lines().findFirst().orElse("malformed");
        return firstLine.length() > 200 ? firstLine.substring(0, 200) + "..." : firstLine;
    }
}
