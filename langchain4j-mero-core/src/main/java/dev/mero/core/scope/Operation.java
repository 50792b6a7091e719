package dev.mero.core.scope;

/**
 * The operations of the library and the scope each one requires. With scopes configured on a context, an
 * operation runs only if one of the context's grants covers its scope; the check comes before anything else.
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
    FILE_READ("files:file:read"),
    /** Create, overwrite or append to a file. */
    FILE_WRITE("files:file:write"),
    /** Delete a file. */
    FILE_DELETE("files:file:delete"),
    /** List a directory's entries. */
    DIRECTORY_LIST("files:directory:list"),
    /** Create a directory. */
    DIRECTORY_CREATE("files:directory:create"),
    /** Run a command. */
    COMMAND_EXECUTE("commands:command:execute");

    private final Scope scope;

    Operation(String scope) {
        this.scope = Scope.required(scope);
    }

    /**
     * The concrete scope this operation requires.
     *
     * @return the scope
     */
    public Scope scope() {
        return scope;
    }
}
