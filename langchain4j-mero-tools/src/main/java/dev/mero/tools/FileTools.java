package dev.mero.tools;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.mero.core.SecurityContext;
import dev.mero.core.ops.FileToolTexts;
import dev.mero.core.ops.MeroOperations;
import java.util.Objects;

/**
 * LangChain4j file tools: {@code read_file}, {@code write_file}, {@code append_file}, {@code edit_file},
 * {@code copy_file}, {@code move_file}, {@code delete_file} and {@code file_info}. Thin adapters: each method
 * hands its arguments to {@link MeroOperations}, where the operation, its limits, messages and checks live;
 * names and descriptions come from the core's catalogue texts.
 */
public final class FileTools {

    private final MeroOperations operations;

    /**
     * Creates the tools for a context, with the default limits.
     *
     * @param context the context that decides every call
     */
    public FileTools(SecurityContext context) {
        this(MeroOperations.forContext(context));
    }

    /**
     * Creates the tools over operations with their own limits.
     *
     * @param operations the operations bound to a context
     */
    public FileTools(MeroOperations operations) {
        this.operations = Objects.requireNonNull(operations, "operations");
    }

    /**
     * Reads a window of a text file's lines.
     *
     * @param path   the file
     * @param offset the first line, 1-based, or {@code null}
     * @param limit  most lines, or {@code null}
     * @return the text, with a note when cut
     */
    @Tool(name = FileToolTexts.READ_FILE, value = FileToolTexts.READ_FILE_DESCRIPTION)
    public String readFile(@P(name = "path", value = FileToolTexts.READ_FILE_PATH) String path,
                           @P(name = "offset", value = FileToolTexts.READ_FILE_OFFSET, required = false)
                           Integer offset,
                           @P(name = "limit", value = FileToolTexts.READ_FILE_LIMIT, required = false)
                           Integer limit) {
        return ToolCalls.call(operations, FileToolTexts.READ_FILE, "path", path, "offset", offset, "limit", limit);
    }

    /**
     * Writes a file atomically.
     *
     * @param path    the file
     * @param content the complete new contents
     * @return what was written
     */
    @Tool(name = FileToolTexts.WRITE_FILE, value = FileToolTexts.WRITE_FILE_DESCRIPTION)
    public String writeFile(@P(name = "path", value = FileToolTexts.WRITE_FILE_PATH) String path,
                            @P(name = "content", value = FileToolTexts.WRITE_FILE_CONTENT) String content) {
        return ToolCalls.call(operations, FileToolTexts.WRITE_FILE, "path", path, "content", content);
    }
}
