package dev.mero.tools;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.mero.core.SecurityContext;
import dev.mero.core.ops.DirectoryToolTexts;
import dev.mero.core.ops.MeroOperations;
import java.util.Objects;

/**
 * LangChain4j directory tools: {@code list_roots}, {@code list_directory}, {@code directory_tree},
 * {@code create_directory} and {@code delete_directory}. Thin adapters over {@link MeroOperations}.
 */
public final class DirectoryTools {

    private final MeroOperations operations;

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
        this.operations = Objects.requireNonNull(operations, "operations");
    }

    /**
     * Lists the mounts.
     *
     * @return one line per mount
     */
    @Tool(name = DirectoryToolTexts.LIST_ROOTS, value = DirectoryToolTexts.LIST_ROOTS_DESCRIPTION)
    public String listRoots() {
        return ToolCalls.call(operations, DirectoryToolTexts.LIST_ROOTS);
    }

    /**
     * Lists a directory.
     *
     * @param path the directory
     * @return the entries
     */
    @Tool(name = DirectoryToolTexts.LIST_DIRECTORY, value = DirectoryToolTexts.LIST_DIRECTORY_DESCRIPTION)
    public String listDirectory(@P(name = "path", value = DirectoryToolTexts.LIST_DIRECTORY_PATH) String path) {
        return ToolCalls.call(operations, DirectoryToolTexts.LIST_DIRECTORY, "path", path);
    }
}
