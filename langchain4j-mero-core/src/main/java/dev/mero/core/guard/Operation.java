package dev.mero.core.guard;

import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;

import dev.mero.core.scope.Scope;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * The operations of the library, with the scope and the path permissions each one requires. With scopes
 * configured on a context, an operation runs only if one of the context's grants covers its scope; that check
 * comes before anything else (see {@link SecurityContext#guard(Operation, String)}).
 *
 * <table>
 *   <caption>Required scopes</caption>
 *   <tr><th>Operation</th><th>Required scope</th><th>Covered by, for example</th></tr>
 *   <tr><td>{@link #FILE_READ}</td><td>{@code files:file:read}</td><td>{@code files::}, {@code files:*:read},
 *       {@code files:file:*}</td></tr>
 *   <tr><td>{@link #FILE_WRITE}</td><td>{@code files:file:write}</td><td>{@code files::},
 *       {@code files:*:write}, {@code files:file:*}</td></tr>
 *   <tr><td>{@link #FILE_DELETE}</td><td>{@code files:file:delete}</td><td>{@code files::},
 *       {@code files:*:delete}, {@code files:file:*}</td></tr>
 *   <tr><td>{@link #DIRECTORY_LIST}</td><td>{@code files:directory:list}</td><td>{@code files::},
 *       {@code files:*:list}, {@code files:directory:*}</td></tr>
 *   <tr><td>{@link #DIRECTORY_CREATE}</td><td>{@code files:directory:create}</td><td>{@code files::},
 *       {@code files:*:create}, {@code files:directory:*}</td></tr>
 *   <tr><td>{@link #COMMAND_EXECUTE}</td><td>{@code commands:command:execute}</td><td>{@code commands::},
 *       {@code commands:*:execute}, {@code commands:command:*}</td></tr>
 * </table>
 * Note that {@code files:*:read} does not cover listing a directory: listing is its own action.
 */
public enum Operation {

    /** Read a file's contents. */
    FILE_READ("files:file:read", Permission.READ),
    /** Create, overwrite or append to a file. */
    FILE_WRITE("files:file:write", Permission.WRITE),
    /** Delete a file. */
    FILE_DELETE("files:file:delete", Permission.DELETE),
    /** List a directory's entries. */
    DIRECTORY_LIST("files:directory:list", Permission.READ),
    /** Create a directory. */
    DIRECTORY_CREATE("files:directory:create", Permission.WRITE),
    /** Run a command. */
    COMMAND_EXECUTE("commands:command:execute", Permission.EXECUTE);

    private final Scope scope;
    private final Set<Permission> permissions;

    Operation(String scope, Permission permission) {
        this.scope = Scope.required(scope);
        this.permissions = Collections.unmodifiableSet(EnumSet.of(permission));
    }

    /**
     * The concrete scope this operation requires.
     *
     * @return the scope
     */
    public Scope scope() {
        return scope;
    }

    /**
     * The path permissions this operation needs on its target (for a command: on its working directory).
     *
     * @return an immutable, non-empty set
     */
    public Set<Permission> permissions() {
        return permissions;
    }
}
