package dev.mero.tools;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.invocation.InvocationParameters;
import dev.mero.core.SecurityContext;
import dev.mero.core.catalogue.DirectoryToolTexts;
import dev.mero.core.ops.MeroOperations;
import java.util.Objects;

/**
 * LangChain4j directory tools: {@code list_roots}, {@code list_directory}, {@code directory_tree},
 * {@code create_directory} and {@code delete_directory}. Thin adapters over {@link MeroOperations}.
 */
public final class DirectoryTools {

    private final CallerOperations callers;

    /**
     * Creates the tools for a context, with the default limits.
     *
     * @param context the context that decides every call
     */
    public DirectoryTools(SecurityContext context) {
        this(MeroOperations.forContext(context));
    }

    /**
     * Creates the tools over operations with their own limits.
     *
     * @param operations the operations bound to a context
     */
    public DirectoryTools(MeroOperations operations) {
        this.callers = new CallerOperations(Objects.requireNonNull(operations, "operations"));
    }

    /**
     * Lists the mounts.
     *
     * @param parameters the AI-service call's invocation parameters: a {@link CallerIdentity} narrows the call
     * @return one line per mount
     */
    @Tool(name = DirectoryToolTexts.LIST_ROOTS, value = DirectoryToolTexts.LIST_ROOTS_DESCRIPTION)
    public String listRoots(InvocationParameters parameters) {
        return ToolCalls.call(callers, parameters, DirectoryToolTexts.LIST_ROOTS);
    }

    /**
     * Lists a directory.
     *
     * @param path the directory
     * @param parameters the AI-service call's invocation parameters: a {@link CallerIdentity} narrows the call
     * @return the entries
     */
    @Tool(name = DirectoryToolTexts.LIST_DIRECTORY, value = DirectoryToolTexts.LIST_DIRECTORY_DESCRIPTION)
    public String listDirectory(@P(name = "path", value = DirectoryToolTexts.LIST_DIRECTORY_PATH) String path,
            InvocationParameters parameters) {
        return ToolCalls.call(callers, parameters, DirectoryToolTexts.LIST_DIRECTORY, "path", path);
    }

    /**
     * Shows the tree below a directory.
     *
     * @param path     the directory
     * @param maxDepth how many levels, or {@code null}
     * @param parameters the AI-service call's invocation parameters: a {@link CallerIdentity} narrows the call
     * @return the tree
     */
    @Tool(name = DirectoryToolTexts.DIRECTORY_TREE, value = DirectoryToolTexts.DIRECTORY_TREE_DESCRIPTION)
    public String directoryTree(@P(name = "path", value = DirectoryToolTexts.DIRECTORY_TREE_PATH) String path,
                                @P(name = "max_depth", value = DirectoryToolTexts.DIRECTORY_TREE_MAX_DEPTH,
                                        required = false) Integer maxDepth,
            InvocationParameters parameters) {
        return ToolCalls.call(callers, parameters, DirectoryToolTexts.DIRECTORY_TREE, "path", path, "max_depth", maxDepth);
    }

    /**
     * Creates a directory.
     *
     * @param path the directory
     * @param parameters the AI-service call's invocation parameters: a {@link CallerIdentity} narrows the call
     * @return what was created
     */
    @Tool(name = DirectoryToolTexts.CREATE_DIRECTORY, value = DirectoryToolTexts.CREATE_DIRECTORY_DESCRIPTION)
    public String createDirectory(@P(name = "path", value = DirectoryToolTexts.CREATE_DIRECTORY_PATH) String path,
            InvocationParameters parameters) {
        return ToolCalls.call(callers, parameters, DirectoryToolTexts.CREATE_DIRECTORY, "path", path);
    }

    /**
     * Deletes a directory.
     *
     * @param path      the directory
     * @param recursive also delete everything inside, or {@code null}
     * @param parameters the AI-service call's invocation parameters: a {@link CallerIdentity} narrows the call
     * @return what was deleted
     */
    @Tool(name = DirectoryToolTexts.DELETE_DIRECTORY, value = DirectoryToolTexts.DELETE_DIRECTORY_DESCRIPTION)
    public String deleteDirectory(@P(name = "path", value = DirectoryToolTexts.DELETE_DIRECTORY_PATH) String path,
                                  @P(name = "recursive", value = DirectoryToolTexts.DELETE_DIRECTORY_RECURSIVE,
                                          required = false) Boolean recursive,
            InvocationParameters parameters) {
        return ToolCalls.call(callers, parameters, DirectoryToolTexts.DELETE_DIRECTORY, "path", path, "recursive", recursive);
    }
}
