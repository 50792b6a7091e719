package dev.mero.tools;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.invocation.InvocationParameters;
import dev.mero.core.SecurityContext;
import dev.mero.core.catalogue.FileToolTexts;
import dev.mero.core.ops.MeroOperations;
import java.util.Objects;

/**
 * LangChain4j file tools: {@code read_file}, {@code write_file}, {@code append_file}, {@code edit_file},
 * {@code copy_file}, {@code move_file}, {@code delete_file} and {@code file_info}. Thin adapters: each method
 * hands its arguments to {@link MeroOperations}, where the operation, its limits, messages and checks live;
 * names and descriptions come from the core's catalogue texts.
 */
public final class FileTools {

    private final CallerOperations callers;

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
        this.callers = new CallerOperations(Objects.requireNonNull(operations, "operations"));
    }

    /**
     * Reads a window of a text file's lines.
     *
     * @param path   the file
     * @param offset the first line, 1-based, or {@code null}
     * @param limit  most lines, or {@code null}
     * @param parameters the AI-service call's invocation parameters: a {@link CallerIdentity} narrows the call
     * @return the text, with a note when cut
     */
    @Tool(name = FileToolTexts.READ_FILE, value = FileToolTexts.READ_FILE_DESCRIPTION)
    public String readFile(@P(name = "path", value = FileToolTexts.READ_FILE_PATH) String path,
                           @P(name = "offset", value = FileToolTexts.READ_FILE_OFFSET, required = false)
                           Integer offset,
                           @P(name = "limit", value = FileToolTexts.READ_FILE_LIMIT, required = false)
                           Integer limit,
            InvocationParameters parameters) {
        return ToolCalls.call(callers, parameters, FileToolTexts.READ_FILE, "path", path, "offset", offset,
                "limit", limit);
    }

    /**
     * Writes a file atomically.
     *
     * @param path    the file
     * @param content the complete new contents
     * @param parameters the AI-service call's invocation parameters: a {@link CallerIdentity} narrows the call
     * @return what was written
     */
    @Tool(name = FileToolTexts.WRITE_FILE, value = FileToolTexts.WRITE_FILE_DESCRIPTION)
    public String writeFile(@P(name = "path", value = FileToolTexts.WRITE_FILE_PATH) String path,
                            @P(name = "content", value = FileToolTexts.WRITE_FILE_CONTENT) String content,
            InvocationParameters parameters) {
        return ToolCalls.call(callers, parameters, FileToolTexts.WRITE_FILE, "path", path, "content", content);
    }

    /**
     * Appends text to a file.
     *
     * @param path    the file
     * @param content the text to add
     * @param parameters the AI-service call's invocation parameters: a {@link CallerIdentity} narrows the call
     * @return what was appended
     */
    @Tool(name = FileToolTexts.APPEND_FILE, value = FileToolTexts.APPEND_FILE_DESCRIPTION)
    public String appendFile(@P(name = "path", value = FileToolTexts.APPEND_FILE_PATH) String path,
                             @P(name = "content", value = FileToolTexts.APPEND_FILE_CONTENT) String content,
            InvocationParameters parameters) {
        return ToolCalls.call(callers, parameters, FileToolTexts.APPEND_FILE, "path", path, "content", content);
    }

    /**
     * Replaces exact text in a file.
     *
     * @param path       the file
     * @param oldText    the exact text to replace
     * @param newText    its replacement
     * @param replaceAll replace every occurrence, or {@code null}
     * @param dryRun     only show the diff, or {@code null}
     * @param parameters the AI-service call's invocation parameters: a {@link CallerIdentity} narrows the call
     * @return the unified diff
     */
    @Tool(name = FileToolTexts.EDIT_FILE, value = FileToolTexts.EDIT_FILE_DESCRIPTION)
    public String editFile(@P(name = "path", value = FileToolTexts.EDIT_FILE_PATH) String path,
                           @P(name = "old_text", value = FileToolTexts.EDIT_FILE_OLD_TEXT) String oldText,
                           @P(name = "new_text", value = FileToolTexts.EDIT_FILE_NEW_TEXT) String newText,
                           @P(name = "replace_all", value = FileToolTexts.EDIT_FILE_REPLACE_ALL, required = false)
                           Boolean replaceAll,
                           @P(name = "dry_run", value = FileToolTexts.EDIT_FILE_DRY_RUN, required = false)
                           Boolean dryRun,
            InvocationParameters parameters) {
        return ToolCalls.call(callers, parameters, FileToolTexts.EDIT_FILE, "path", path, "old_text", oldText,
                "new_text", newText, "replace_all", replaceAll, "dry_run", dryRun);
    }

    /**
     * Copies a file.
     *
     * @param source      the file to copy
     * @param destination the copy's path
     * @param parameters the AI-service call's invocation parameters: a {@link CallerIdentity} narrows the call
     * @return what was copied
     */
    @Tool(name = FileToolTexts.COPY_FILE, value = FileToolTexts.COPY_FILE_DESCRIPTION)
    public String copyFile(@P(name = "source", value = FileToolTexts.COPY_FILE_SOURCE) String source,
                           @P(name = "destination", value = FileToolTexts.COPY_FILE_DESTINATION) String destination,
            InvocationParameters parameters) {
        return ToolCalls.call(callers, parameters, FileToolTexts.COPY_FILE, "source", source, "destination", destination);
    }

    /**
     * Moves a file.
     *
     * @param source      the file to move
     * @param destination its new path
     * @param parameters the AI-service call's invocation parameters: a {@link CallerIdentity} narrows the call
     * @return what was moved
     */
    @Tool(name = FileToolTexts.MOVE_FILE, value = FileToolTexts.MOVE_FILE_DESCRIPTION)
    public String moveFile(@P(name = "source", value = FileToolTexts.MOVE_FILE_SOURCE) String source,
                           @P(name = "destination", value = FileToolTexts.MOVE_FILE_DESTINATION) String destination,
            InvocationParameters parameters) {
        return ToolCalls.call(callers, parameters, FileToolTexts.MOVE_FILE, "source", source, "destination", destination);
    }

    /**
     * Deletes a file.
     *
     * @param path the file
     * @param parameters the AI-service call's invocation parameters: a {@link CallerIdentity} narrows the call
     * @return what was deleted, or that it was already absent
     */
    @Tool(name = FileToolTexts.DELETE_FILE, value = FileToolTexts.DELETE_FILE_DESCRIPTION)
    public String deleteFile(@P(name = "path", value = FileToolTexts.DELETE_FILE_PATH) String path,
            InvocationParameters parameters) {
        return ToolCalls.call(callers, parameters, FileToolTexts.DELETE_FILE, "path", path);
    }

    /**
     * Describes a path.
     *
     * @param path the file or directory
     * @param parameters the AI-service call's invocation parameters: a {@link CallerIdentity} narrows the call
     * @return its type, size, time and what the agent may do there
     */
    @Tool(name = FileToolTexts.FILE_INFO, value = FileToolTexts.FILE_INFO_DESCRIPTION)
    public String fileInfo(@P(name = "path", value = FileToolTexts.FILE_INFO_PATH) String path,
            InvocationParameters parameters) {
        return ToolCalls.call(callers, parameters, FileToolTexts.FILE_INFO, "path", path);
    }
}
