package dev.mero.core.catalogue;

import java.util.Objects;

/**
 * One parameter of a tool: its JSON argument name (a public contract), type, whether the model must give it,
 * and a description written for the model. Immutable.
 */
public final class ToolParameter {

    private final String name;
    private final ParameterType type;
    private final boolean required;
    private final String description;

    private ToolParameter(String name, ParameterType type, boolean required, String description) {
        this.name = requireName(name);
        this.type = Objects.requireNonNull(type, "type");
        this.required = required;
        this.description = Objects.requireNonNull(description, "description");
    }

    /**
     * A parameter the model must give.
     *
     * @param name        the JSON argument name, e.g. {@code path}
     * @param type        its JSON type
     * @param description what it means, for the model
     * @return the parameter
     */
    public static ToolParameter required(String name, ParameterType type, String description) {
        return new ToolParameter(name, type, true, description);
    }

    /**
     * A parameter the model may leave out ({@code null} or absent).
     *
     * @param name        the JSON argument name
     * @param type        its JSON type
     * @param description what it means and what leaving it out does, for the model
     * @return the parameter
     */
    public static ToolParameter optional(String name, ParameterType type, String description) {
        return new ToolParameter(name, type, false, description);
    }

    /**
     * The JSON argument name.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * The JSON type.
     *
     * @return the type
     */
    public ParameterType type() {
        return type;
    }

    /**
     * Tells whether the model must give this argument.
     *
     * @return {@code true} for a required parameter
     */
    public boolean required() {
        return required;
    }

    /**
     * What the parameter means, written for the model.
     *
     * @return the description
     */
    public String description() {
        return description;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ToolParameter other && name.equals(other.name) && type == other.type
                && required == other.required && description.equals(other.description);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, type, required, description);
    }

    @Override
    public String toString() {
        return name + (required ? "" : "?") + ": " + type.jsonType();
    }

    private static String requireName(String name) {
        Objects.requireNonNull(name, "name");
        if (!name.matches("[a-z][a-z0-9_]*")) {
            throw new IllegalArgumentException("A parameter name is lower snake case, was '" + name + "'");
        }
        return name;
    }
}
