package dev.mero.core.policy;

import dev.mero.core.InvalidPolicyException;
import dev.mero.core.Permission;
import dev.mero.core.message.Messages;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * One node of a policy file, with the field path that leads to it, so that every error names the file, the
 * field and the value. Reading is strict: unknown keys, wrong types and bad values all fail.
 */
final class PolicyNode {

    private static final java.util.regex.Pattern BYTE_SIZE =
            java.util.regex.Pattern.compile("([0-9]{1,19})\\s*(KiB|MiB|GiB|TiB)?");

    private final Path file;
    private final String field;
    private final JsonNode node;

    PolicyNode(Path file, String field, JsonNode node) {
        this.file = file;
        this.field = field;
        this.node = node;
    }

    /** Fails unless this is an object whose keys are all among {@code allowed}. */
    PolicyNode object(String... allowed) {
        if (!node.isObject()) {
            throw fail("expected a mapping of keys to values, got " + describe(node));
        }
        Set<String> known = new TreeSet<>(Arrays.asList(allowed));
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!known.contains(name)) {
                throw child(name).fail("unknown key " + Messages.quote(name) + " (known keys: "
                        + String.join(", ", known) + ")");
            }
        }
        return this;
    }

    /**
     * The one key of {@code names} that is present (the first name is the documented one, the others are
     * accepted spellings); the first name when none is. Two spellings of one setting are refused, so a
     * policy never means two things at once.
     */
    String oneOf(String... names) {
        String present = null;
        for (String name : names) {
            if (has(name)) {
                if (present != null) {
                    throw child(name).fail("sets the same thing as " + Messages.quote(present) + "; keep one of them");
                }
                present = name;
            }
        }
        return present != null ? present : names[0];
    }

    /**
     * Whether the key is present. A key written without a value ({@code scopes: ~}) is refused rather than read
     * as absent: absent often means "unrestricted" (no scopes, every permission), never what such a line meant.
     */
    boolean has(String key) {
        if (node.has(key) && node.get(key).isNull()) {
            throw child(key).fail("has no value; give one (an empty list is written []) or leave the key out");
        }
        return node.has(key);
    }

    PolicyNode get(String key) {
        return child(key);
    }

    String text() {
        if (!node.isTextual()) {
            throw fail("expected a string, got " + describe(node));
        }
        return node.textValue();
    }

    boolean bool() {
        if (!node.isBoolean()) {
            throw fail("expected true or false, got " + describe(node));
        }
        return node.booleanValue();
    }

    int integer(int min, int max) {
        if (!node.isIntegralNumber() || !node.canConvertToInt() || node.intValue() < min || node.intValue() > max) {
            throw fail("expected a whole number from " + min + " to " + max + ", got " + describe(node));
        }
        return node.intValue();
    }

    /**
     * A byte count: a whole number of bytes, or text with a binary unit ({@code 512MiB}, {@code 2 GiB},
     * {@code 64KiB}).
     */
    long bytes() {
        if (node.isIntegralNumber() && node.canConvertToLong() && node.longValue() > 0) {
            return node.longValue();
        }
        java.util.regex.Matcher size = node.isTextual()
                ? BYTE_SIZE.matcher(node.textValue().strip()) : BYTE_SIZE.matcher("");
        if (!size.matches()) {
            throw fail("expected a size such as 512MiB, 2GiB or a number of bytes, got " + describe(node));
        }
        int shift = switch (size.group(2) == null ? "" : size.group(2)) {
            case "KiB" -> 10;
            case "MiB" -> 20;
            case "GiB" -> 30;
            case "TiB" -> 40;
            default -> 0;
        };
        long value = Long.parseLong(size.group(1));
        if (value == 0 || value > Long.MAX_VALUE >> shift) {
            throw fail("expected a positive size no larger than 8 EiB, got " + describe(node));
        }
        return value << shift;
    }

    Duration duration() {
        String text = text();
        try {
            Duration duration = Duration.parse(text);
            if (duration.isNegative() || duration.isZero()) {
                throw fail("expected a positive duration, got " + Messages.quote(text));
            }
            return duration;
        } catch (DateTimeParseException e) {
            throw fail("expected an ISO-8601 duration such as 'PT30S' or 'PT2M', got " + Messages.quote(text));
        }
    }

    List<PolicyNode> list() {
        if (!node.isArray()) {
            throw fail("expected a list, got " + describe(node));
        }
        List<PolicyNode> items = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            items.add(new PolicyNode(file, field + "[" + i + "]", node.get(i)));
        }
        return items;
    }

    List<String> texts() {
        List<String> texts = new ArrayList<>();
        for (PolicyNode item : list()) {
            texts.add(item.text());
        }
        return texts;
    }

    Permission[] permissions() {
        EnumSet<Permission> permissions = EnumSet.noneOf(Permission.class);
        for (PolicyNode item : list()) {
            String name = item.text();
            try {
                permissions.add(Permission.valueOf(name.toUpperCase(java.util.Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw item.fail(Messages.quote(name) + " is not a permission (expected one of READ, WRITE, EXECUTE, "
                        + "DELETE)");
            }
        }
        return permissions.toArray(new Permission[0]);
    }

    /** A failure of this node: the message names the file, this field and the problem. */
    InvalidPolicyException fail(String problem) {
        return new InvalidPolicyException(file, field, problem, null);
    }

    /** A failure of this node caused by a library refusal (a bad slug, a malformed rule, ...). */
    InvalidPolicyException fail(RuntimeException cause) {
        return new InvalidPolicyException(file, field, cause.getMessage(), cause);
    }

    private PolicyNode child(String key) {
        JsonNode value = node.get(key);
        return new PolicyNode(file, field.isEmpty() ? key : field + "." + key,
                value == null ? com.fasterxml.jackson.databind.node.MissingNode.getInstance() : value);
    }

    private static String describe(JsonNode value) {
        if (value == null || value.isMissingNode() || value.isNull()) {
            return "nothing";
        }
        if (value.isTextual()) {
            return Messages.quote(value.textValue());
        }
        if (value.isContainerNode()) {
            return value.isArray() ? "a list" : "a mapping";
        }
        return Messages.quote(value.asText());
    }
}
