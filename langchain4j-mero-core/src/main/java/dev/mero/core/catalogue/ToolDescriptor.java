package dev.mero.core.catalogue;

import dev.mero.core.ops.UntrustedContent;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mero.core.guard.Operation;
import dev.mero.core.Permission;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.StringJoiner;

/**
 * Everything a binding needs to publish one tool: its name, a description written for a model, its
 * parameters in declaration order, the operations and path permissions it may need, and its behaviour
 * hints. Immutable; built with {@link #builder()}.
 */
public final class ToolDescriptor {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String name;
    private final String description;
    private final List<ToolParameter> parameters;
    private final Map<String, ToolParameter> byName;
    private final Set<Operation> operations;
    private final Set<Permission> permissions;
    private final ToolHints hints;
    private final String jsonSchema;
    private final String argumentHint;
    private final boolean untrustedOutput;

    private ToolDescriptor(Builder builder) {
        this.name = requireName(builder.name);
        this.description = Objects.requireNonNull(builder.description, "description");
        this.parameters = List.copyOf(builder.parameters);
        Map<String, ToolParameter> map = new LinkedHashMap<>();
        for (ToolParameter parameter : parameters) {
            if (map.put(parameter.name(), parameter) != null) {
                throw new IllegalArgumentException("Tool '" + name + "' declares '" + parameter.name() + "' twice");
            }
        }
        this.byName = Collections.unmodifiableMap(map);
        this.operations = Collections.unmodifiableSet(builder.operations.isEmpty()
                ? EnumSet.noneOf(Operation.class) : EnumSet.copyOf(builder.operations));
        EnumSet<Permission> needed = builder.permissions.isEmpty()
                ? EnumSet.noneOf(Permission.class) : EnumSet.copyOf(builder.permissions);
        builder.operations.forEach(operation -> needed.addAll(operation.permissions()));
        this.permissions = Collections.unmodifiableSet(needed);
        this.hints = Objects.requireNonNull(builder.hints, "hints");
        this.jsonSchema = schema(parameters);
        this.argumentHint = hint(name, parameters);
        this.untrustedOutput = builder.untrustedOutput;
    }

    /**
     * Starts a descriptor.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The tool's name, e.g. {@code read_file}: a public contract.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * What the tool does, written for a model; names no fixed mount and points to {@code list_roots}.
     *
     * @return the description
     */
    public String description() {
        return description;
    }

    /**
     * The parameters in declaration order.
     *
     * @return an immutable list
     */
    public List<ToolParameter> parameters() {
        return parameters;
    }

    /**
     * A parameter by its JSON name.
     *
     * @param parameterName the name
     * @return the parameter, or {@code null} if the tool has none of that name
     */
    public ToolParameter parameter(String parameterName) {
        return byName.get(parameterName);
    }

    /**
     * The operations the tool may perform; the scopes it needs derive from them.
     *
     * @return an immutable set, empty for a tool that touches nothing (e.g. {@code list_roots})
     */
    public Set<Operation> operations() {
        return operations;
    }

    /**
     * The path permissions the tool needs in every call: those of its operations and any it adds.
     *
     * @return an immutable set
     */
    public Set<Permission> permissions() {
        return permissions;
    }

    /**
     * The behaviour hints.
     *
     * @return the hints
     */
    public ToolHints hints() {
        return hints;
    }

    /**
     * The JSON Schema of the arguments:
     * {@code {"type":"object","properties":{...},"required":[...],"additionalProperties":false}}.
     *
     * @return the schema as JSON text
     */
    public String jsonSchema() {
        return jsonSchema;
    }

    /**
     * How a model should call the tool, for the {@code Expected ...} part of an invalid-input message, e.g.
     * {@code {"path": string (required), "offset": integer (optional)}}.
     *
     * @return the hint
     */
    public String argumentHint() {
        return argumentHint;
    }

    /**
     * Tells whether the tool's result carries content from outside the model's control (file text, names,
     * command output, search results) that a binding should mark as data ({@link UntrustedContent}).
     *
     * @return {@code true} for untrusted output
     */
    public boolean untrustedOutput() {
        return untrustedOutput;
    }

    @Override
    public String toString() {
        return "ToolDescriptor{" + name + parameters + "}";
    }

    private static String schema(List<ToolParameter> parameters) {
        ObjectNode root = JSON.createObjectNode();
        root.put("type", "object");
        ObjectNode properties = root.putObject("properties");
        ArrayNode required = JSON.createArrayNode();
        for (ToolParameter parameter : parameters) {
            ObjectNode property = properties.putObject(parameter.name());
            property.put("type", parameter.type().jsonType());
            property.put("description", parameter.description());
            if (parameter.required()) {
                required.add(parameter.name());
            }
        }
        root.set("required", required);
        root.put("additionalProperties", false);
        return root.toString();
    }

    private static String hint(String name, List<ToolParameter> parameters) {
        StringJoiner joiner = new StringJoiner(", ", "{", "}");
        for (ToolParameter parameter : parameters) {
            joiner.add("\"" + parameter.name() + "\": " + parameter.type().jsonType()
                    + (parameter.required() ? " (required)" : " (optional)"));
        }
        return "a JSON object for " + name + " like " + joiner
                + (parameters.isEmpty() ? " (no arguments)" : " and no other keys");
    }

    private static String requireName(String name) {
        Objects.requireNonNull(name, "name");
        if (!name.matches("[a-z][a-z0-9_]*")) {
            throw new IllegalArgumentException("A tool name is lower snake case, was '" + name + "'");
        }
        return name;
    }

    /** Builds a {@link ToolDescriptor}; name, description and hints are required. */
    public static final class Builder {

        private String name;
        private String description;
        private final List<ToolParameter> parameters = new ArrayList<>();
        private final Set<Operation> operations = EnumSet.noneOf(Operation.class);
        private final Set<Permission> permissions = EnumSet.noneOf(Permission.class);
        private ToolHints hints;
        private boolean untrustedOutput;

        private Builder() {
        }

        /**
         * Marks the tool's results as carrying untrusted content.
         *
         * @param untrustedOutput {@code true} if results hold file text, names, command output or matches
         * @return this builder
         */
        public Builder untrustedOutput(boolean untrustedOutput) {
            this.untrustedOutput = untrustedOutput;
            return this;
        }

        /**
         * Sets the tool's name.
         *
         * @param name lower snake case, e.g. {@code read_file}
         * @return this builder
         */
        public Builder name(String name) {
            this.name = name;
            return this;
        }

        /**
         * Sets the description written for the model.
         *
         * @param description the description
         * @return this builder
         */
        public Builder description(String description) {
            this.description = description;
            return this;
        }

        /**
         * Adds a parameter after those added before.
         *
         * @param parameter the parameter
         * @return this builder
         */
        public Builder parameter(ToolParameter parameter) {
            parameters.add(Objects.requireNonNull(parameter, "parameter"));
            return this;
        }

        /**
         * Adds operations the tool may perform.
         *
         * @param operations the operations
         * @return this builder
         */
        public Builder operation(Operation... operations) {
            for (Operation operation : operations) {
                this.operations.add(Objects.requireNonNull(operation, "operation"));
            }
            return this;
        }

        /**
         * Adds path permissions the tool needs in every call, beyond those of its operations (which it needs
         * anyway: {@link ToolDescriptor#permissions()} includes them).
         *
         * @param permissions the permissions
         * @return this builder
         */
        public Builder permission(Permission... permissions) {
            for (Permission permission : permissions) {
                this.permissions.add(Objects.requireNonNull(permission, "permission"));
            }
            return this;
        }

        /**
         * Sets the behaviour hints.
         *
         * @param hints the hints
         * @return this builder
         */
        public Builder hints(ToolHints hints) {
            this.hints = hints;
            return this;
        }

        /**
         * Builds the descriptor.
         *
         * @return the descriptor
         * @throws NullPointerException     if the name, description or hints are missing
         * @throws IllegalArgumentException if a name is malformed or a parameter is declared twice
         */
        public ToolDescriptor build() {
            return new ToolDescriptor(this);
        }
    }
}
