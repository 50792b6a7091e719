package dev.mero.core;

import dev.mero.core.message.Messages;

import java.nio.file.Path;

/**
 * A policy file that cannot be turned into a {@link SecurityContext}: unreadable, malformed, an unknown key,
 * a bad permission name, a missing directory, a malformed rule. The message names the file, the field and
 * the value. A broken policy is refused whole; it never becomes a partial or a permissive one.
 *
 * <p>This is a configuration error for the application's developer, not a decision for the model, so it is
 * not a {@link MeroToolsException}.
 */
public class InvalidPolicyException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** The policy file; transient because {@link Path} is not serializable. */
    private final transient Path file;
    /** The failing field as a path such as {@code paths[1].allow[0]}, or {@code null} for the whole file. */
    private final String field;

    /**
     * Creates the exception.
     *
     * @param file    the policy file
     * @param field   the field, as a path such as {@code paths[1].allow[0]}, or {@code null} for the whole file
     * @param problem what is wrong, naming the value
     * @param cause   the underlying failure, or {@code null}
     */
    public InvalidPolicyException(Path file, String field, String problem, Throwable cause) {
        super("Policy file " + Messages.quote(String.valueOf(file))
                + (field == null || field.isEmpty() ? "" : ", field " + Messages.quote(field)) + ": " + problem, cause);
        this.file = file;
        this.field = field;
    }

    /**
     * The policy file that failed.
     *
     * @return the file
     */
    public Path file() {
        return file;
    }

    /**
     * The field that failed, as a path such as {@code paths[1].allow[0]}.
     *
     * @return the field, or {@code null} when the whole file failed
     */
    public String field() {
        return field;
    }
}
