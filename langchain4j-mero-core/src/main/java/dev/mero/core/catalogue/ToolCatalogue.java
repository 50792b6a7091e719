package dev.mero.core.catalogue;

import static dev.mero.core.catalogue.ParameterType.BOOLEAN;
import static dev.mero.core.catalogue.ParameterType.INTEGER;
import static dev.mero.core.catalogue.ParameterType.STRING;
import static dev.mero.core.catalogue.ToolParameter.optional;
import static dev.mero.core.catalogue.ToolParameter.required;

import dev.mero.core.message.Messages;
import dev.mero.core.guard.Operation;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The tool catalogue: one definition per tool, for every binding (LangChain4j, Spring AI, MCP). Names,
 * parameter names, descriptions, permissions and hints come from here only. Immutable and thread-safe.
 */
public final class ToolCatalogue {

    private static final ToolCatalogue STANDARD = new ToolCatalogue(List.of(
            readFile(), writeFile(), appendFile(), editFile(), copyFile(), moveFile(), deleteFile(), fileInfo(),
            listRoots(), listDirectory(), directoryTree(), createDirectory(), deleteDirectory(),
            findFiles(), searchText(), runCommand(), syncDirectory()));

    private final List<ToolDescriptor> tools;
    private final Map<String, ToolDescriptor> byName;

    private ToolCatalogue(List<ToolDescriptor> tools) {
        this.tools = List.copyOf(tools);
        Map<String, ToolDescriptor> map = new LinkedHashMap<>();
        for (ToolDescriptor tool : this.tools) {
            if (map.put(tool.name(), tool) != null) {
                throw new IllegalArgumentException("Tool '" + tool.name() + "' is defined twice");
            }
        }
        this.byName = Map.copyOf(map);
    }

    /**
     * Every tool of the library, in a fixed order: the file tools, the directory tools, the search tools,
     * {@code run_command} and {@code sync_directory}.
     *
     * @return the standard catalogue
     */
    public static ToolCatalogue standard() {
        return STANDARD;
    }

    /**
     * A catalogue of the given tools, e.g. a subset of the standard one or standard tools described in an
     * application's own words.
     *
     * @param tools the tools, with distinct names, each named after an operation of the library
     * @return the catalogue
     * @throws IllegalArgumentException if a name is given twice, a descriptor has no operation (its name is
     *                                  none of the {@linkplain #standard() standard} tools), or its parameters
     *                                  are not the ones its operation reads (names and types; a required one
     *                                  stays required)
     */
    public static ToolCatalogue of(List<ToolDescriptor> tools) {
        Objects.requireNonNull(tools, "tools");
        for (ToolDescriptor tool : tools) {
            ToolDescriptor standard = STANDARD.find(Objects.requireNonNull(tool, "tool").name()).orElse(null);
            if (standard == null) {
                // a descriptor no operation implements would be published but never run: refuse it here
                throw new IllegalArgumentException("Tool " + Messages.quote(tool.name()) + " has no operation: a "
                        + "catalogue describes tools this library implements (" + String.join(", ",
                        STANDARD.byName.keySet().stream().sorted().toList()) + "), and a descriptor of another "
                        + "name would be offered to a model but could never run");
            }
            requireParametersOf(standard, tool);
        }
        return new ToolCatalogue(tools);
    }

    /** The operation reads exactly the standard parameters: the same names and types, required ones kept. */
    private static void requireParametersOf(ToolDescriptor standard, ToolDescriptor tool) {
        for (ToolParameter parameter : tool.parameters()) {
            ToolParameter expected = standard.parameter(parameter.name());
            if (expected == null || expected.type() != parameter.type()
                    || expected.required() && !parameter.required()) {
                throw new IllegalArgumentException("Tool " + Messages.quote(tool.name()) + " declares "
                        + parameter + ", but its operation reads " + standard.parameters());
            }
        }
        if (tool.parameters().size() != standard.parameters().size()) {
            throw new IllegalArgumentException("Tool " + Messages.quote(tool.name()) + " declares "
                    + tool.parameters() + ", but its operation reads " + standard.parameters());
        }
    }

    /**
     * The tools in catalogue order.
     *
     * @return an immutable list
     */
    public List<ToolDescriptor> tools() {
        return tools;
    }

    /**
     * A tool by name.
     *
     * @param name the tool's name
     * @return the descriptor, or empty
     */
    public Optional<ToolDescriptor> find(String name) {
        return name == null ? Optional.empty() : Optional.ofNullable(byName.get(name));
    }

    private static ToolDescriptor.Builder tool(String name, String description) {
        return ToolDescriptor.builder().name(name).description(description);
    }

    private static ToolDescriptor readFile() {
        return tool(FileToolTexts.READ_FILE, FileToolTexts.READ_FILE_DESCRIPTION)
                .parameter(required("path", STRING, FileToolTexts.READ_FILE_PATH))
                .parameter(optional("offset", INTEGER, FileToolTexts.READ_FILE_OFFSET))
                .parameter(optional("limit", INTEGER, FileToolTexts.READ_FILE_LIMIT))
                .operation(Operation.FILE_READ)
                .untrustedOutput(true)
                .hints(ToolHints.READ_ONLY).build();
    }

    private static ToolDescriptor writeFile() {
        return tool(FileToolTexts.WRITE_FILE, FileToolTexts.WRITE_FILE_DESCRIPTION)
                .parameter(required("path", STRING, FileToolTexts.WRITE_FILE_PATH))
                .parameter(required("content", STRING, FileToolTexts.WRITE_FILE_CONTENT))
                .operation(Operation.FILE_WRITE, Operation.DIRECTORY_CREATE)
                .hints(ToolHints.REPLACES).build();
    }

    private static ToolDescriptor appendFile() {
        return tool(FileToolTexts.APPEND_FILE, FileToolTexts.APPEND_FILE_DESCRIPTION)
                .parameter(required("path", STRING, FileToolTexts.APPEND_FILE_PATH))
                .parameter(required("content", STRING, FileToolTexts.APPEND_FILE_CONTENT))
                .operation(Operation.FILE_WRITE, Operation.DIRECTORY_CREATE)
                .hints(ToolHints.ADDS_EACH_CALL).build();
    }

    private static ToolDescriptor editFile() {
        return tool(FileToolTexts.EDIT_FILE, FileToolTexts.EDIT_FILE_DESCRIPTION)
                .parameter(required("path", STRING, FileToolTexts.EDIT_FILE_PATH))
                .parameter(required("old_text", STRING, FileToolTexts.EDIT_FILE_OLD_TEXT))
                .parameter(required("new_text", STRING, FileToolTexts.EDIT_FILE_NEW_TEXT))
                .parameter(optional("replace_all", BOOLEAN, FileToolTexts.EDIT_FILE_REPLACE_ALL))
                .parameter(optional("dry_run", BOOLEAN, FileToolTexts.EDIT_FILE_DRY_RUN))
                .operation(Operation.FILE_READ, Operation.FILE_WRITE)
                .untrustedOutput(true) // the diff quotes the file's lines
                .hints(ToolHints.CHANGES).build();
    }

    private static ToolDescriptor copyFile() {
        return tool(FileToolTexts.COPY_FILE, FileToolTexts.COPY_FILE_DESCRIPTION)
                .parameter(required("source", STRING, FileToolTexts.COPY_FILE_SOURCE))
                .parameter(required("destination", STRING, FileToolTexts.COPY_FILE_DESTINATION))
                .operation(Operation.FILE_READ, Operation.FILE_WRITE, Operation.DIRECTORY_CREATE)
                
                .hints(ToolHints.REPLACES).build();
    }

    private static ToolDescriptor moveFile() {
        return tool(FileToolTexts.MOVE_FILE, FileToolTexts.MOVE_FILE_DESCRIPTION)
                .parameter(required("source", STRING, FileToolTexts.MOVE_FILE_SOURCE))
                .parameter(required("destination", STRING, FileToolTexts.MOVE_FILE_DESTINATION))
                .operation(Operation.FILE_READ, Operation.FILE_WRITE, Operation.FILE_DELETE,
                        Operation.DIRECTORY_CREATE)
                
                .hints(ToolHints.CHANGES).build();
    }

    private static ToolDescriptor deleteFile() {
        return tool(FileToolTexts.DELETE_FILE, FileToolTexts.DELETE_FILE_DESCRIPTION)
                .parameter(required("path", STRING, FileToolTexts.DELETE_FILE_PATH))
                .operation(Operation.FILE_DELETE)
                .hints(ToolHints.REPLACES).build();
    }

    private static ToolDescriptor fileInfo() {
        return tool(FileToolTexts.FILE_INFO, FileToolTexts.FILE_INFO_DESCRIPTION)
                .parameter(required("path", STRING, FileToolTexts.FILE_INFO_PATH))
                .operation(Operation.FILE_READ)
                .untrustedOutput(true)
                .hints(ToolHints.READ_ONLY).build();
    }

    private static ToolDescriptor listRoots() {
        return tool(DirectoryToolTexts.LIST_ROOTS, DirectoryToolTexts.LIST_ROOTS_DESCRIPTION)
                .hints(ToolHints.READ_ONLY).build();
    }

    private static ToolDescriptor listDirectory() {
        return tool(DirectoryToolTexts.LIST_DIRECTORY, DirectoryToolTexts.LIST_DIRECTORY_DESCRIPTION)
                .parameter(required("path", STRING, DirectoryToolTexts.LIST_DIRECTORY_PATH))
                .operation(Operation.DIRECTORY_LIST)
                .untrustedOutput(true)
                .hints(ToolHints.READ_ONLY).build();
    }

    private static ToolDescriptor directoryTree() {
        return tool(DirectoryToolTexts.DIRECTORY_TREE, DirectoryToolTexts.DIRECTORY_TREE_DESCRIPTION)
                .parameter(required("path", STRING, DirectoryToolTexts.DIRECTORY_TREE_PATH))
                .parameter(optional("max_depth", INTEGER, DirectoryToolTexts.DIRECTORY_TREE_MAX_DEPTH))
                .operation(Operation.DIRECTORY_LIST)
                .untrustedOutput(true)
                .hints(ToolHints.READ_ONLY).build();
    }

    private static ToolDescriptor createDirectory() {
        return tool(DirectoryToolTexts.CREATE_DIRECTORY, DirectoryToolTexts.CREATE_DIRECTORY_DESCRIPTION)
                .parameter(required("path", STRING, DirectoryToolTexts.CREATE_DIRECTORY_PATH))
                .operation(Operation.DIRECTORY_CREATE)
                .hints(ToolHints.ADDS).build();
    }

    private static ToolDescriptor deleteDirectory() {
        return tool(DirectoryToolTexts.DELETE_DIRECTORY, DirectoryToolTexts.DELETE_DIRECTORY_DESCRIPTION)
                .parameter(required("path", STRING, DirectoryToolTexts.DELETE_DIRECTORY_PATH))
                .parameter(optional("recursive", BOOLEAN, DirectoryToolTexts.DELETE_DIRECTORY_RECURSIVE))
                .operation(Operation.FILE_DELETE)
                .hints(ToolHints.REPLACES).build();
    }

    private static ToolDescriptor findFiles() {
        return tool(SearchToolTexts.FIND_FILES, SearchToolTexts.FIND_FILES_DESCRIPTION)
                .parameter(required("path", STRING, SearchToolTexts.FIND_FILES_PATH))
                .parameter(required("pattern", STRING, SearchToolTexts.FIND_FILES_PATTERN))
                .operation(Operation.DIRECTORY_LIST)
                .untrustedOutput(true)
                .hints(ToolHints.READ_ONLY).build();
    }

    private static ToolDescriptor searchText() {
        return tool(SearchToolTexts.SEARCH_TEXT, SearchToolTexts.SEARCH_TEXT_DESCRIPTION)
                .parameter(required("path", STRING, SearchToolTexts.SEARCH_TEXT_PATH))
                .parameter(required("pattern", STRING, SearchToolTexts.SEARCH_TEXT_PATTERN))
                .parameter(optional("glob", STRING, SearchToolTexts.SEARCH_TEXT_GLOB))
                .operation(Operation.DIRECTORY_LIST, Operation.FILE_READ)
                .untrustedOutput(true)
                .hints(ToolHints.READ_ONLY).build();
    }

    private static ToolDescriptor runCommand() {
        return tool(CommandToolTexts.RUN_COMMAND, CommandToolTexts.RUN_COMMAND_DESCRIPTION)
                .parameter(required("command", STRING, CommandToolTexts.RUN_COMMAND_COMMAND))
                .parameter(optional("working_directory", STRING, CommandToolTexts.RUN_COMMAND_WORKING_DIRECTORY))
                .parameter(optional("timeout_seconds", INTEGER, CommandToolTexts.RUN_COMMAND_TIMEOUT_SECONDS))
                .operation(Operation.COMMAND_EXECUTE)
                .untrustedOutput(true)
                .hints(ToolHints.RUNS_PROGRAMS).build();
    }

    private static ToolDescriptor syncDirectory() {
        return tool(SyncToolTexts.SYNC_DIRECTORY, SyncToolTexts.SYNC_DIRECTORY_DESCRIPTION)
                .parameter(required("source", STRING, SyncToolTexts.SYNC_DIRECTORY_SOURCE))
                .parameter(required("destination", STRING, SyncToolTexts.SYNC_DIRECTORY_DESTINATION))
                .parameter(optional("delete_extraneous", BOOLEAN, SyncToolTexts.SYNC_DIRECTORY_DELETE_EXTRANEOUS))
                .parameter(optional("dry_run", BOOLEAN, SyncToolTexts.SYNC_DIRECTORY_DRY_RUN))
                .operation(Operation.DIRECTORY_LIST, Operation.FILE_READ, Operation.FILE_WRITE,
                        Operation.DIRECTORY_CREATE)
                
                .untrustedOutput(true) // the plan and the report name the files found in the source
                .hints(ToolHints.REPLACES).build();
    }
}
