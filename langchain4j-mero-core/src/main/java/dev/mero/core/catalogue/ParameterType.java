package dev.mero.core.catalogue;

/**
 * The JSON type of a tool parameter. Arguments are checked against it strictly: a value of another JSON type
 * is refused, never coerced.
 */
public enum ParameterType {

    /** A JSON string. */
    STRING("string"),
    /** A JSON number without a fraction that fits a Java {@code int}. */
    INTEGER("integer"),
    /** {@code true} or {@code false}. */
    BOOLEAN("boolean"),
    /** Any JSON number, with or without a fraction (read as a {@link Double}). */
    NUMBER("number"),
    /** A JSON array (read as a {@link java.util.List}). */
    ARRAY("array"),
    /** A JSON object (read as a {@link java.util.Map} with string keys). */
    OBJECT("object");

    private final String jsonType;

    ParameterType(String jsonType) {
        this.jsonType = jsonType;
    }

    /**
     * The type's name in JSON Schema.
     *
     * @return {@code "string"}, {@code "integer"}, {@code "boolean"}, {@code "number"}, {@code "array"} or
     *         {@code "object"}
     */
    public String jsonType() {
        return jsonType;
    }
}
