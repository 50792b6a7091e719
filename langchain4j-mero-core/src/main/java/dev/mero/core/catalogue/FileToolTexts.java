package dev.mero.core.catalogue;

/**
 * The names and model-facing texts of the file tools, as compile-time constants so that annotation-based
 * bindings (LangChain4j {@code @Tool}/{@code @P}) and the {@link ToolCatalogue} share one source of text.
 */
public final class FileToolTexts {

    /** How every path argument is written; names no fixed mount. */
    public static final String ADDRESSING = "Paths are virtual: '/<mount>/<path inside it>' (call list_roots to "
            + "see the mounts and what you may do in each), or relative to the first mount.";

    /** Tool name. */
    public static final String READ_FILE = "read_file";
    /** Description of {@value #READ_FILE}. */
    public static final String READ_FILE_DESCRIPTION = "Reads a text file (UTF-8) and returns a window of its "
            + "lines: by default from the first line, as many as fit the limit. Long files are cut, with a note "
            + "at the end saying which lines were shown and how to read on with 'offset'. Directories, devices, "
            + "pipes and binary files are refused. " + ADDRESSING;
    /** Parameter description. */
    public static final String READ_FILE_PATH = "Path of the file to read, for example '/<mount>/notes.md'";
    /** Parameter description. */
    public static final String READ_FILE_OFFSET = "Line number to start at, 1 for the first line (default 1)";
    /** Parameter description. */
    public static final String READ_FILE_LIMIT = "Most lines to return (default: as many as fit the size limit)";

    /** Tool name. */
    public static final String WRITE_FILE = "write_file";
    /** Description of {@value #WRITE_FILE}. */
    public static final String WRITE_FILE_DESCRIPTION = "Writes text to a file (UTF-8), creating it or replacing "
            + "all of its contents atomically; missing parent directories are created. Reports 'unchanged' when "
            + "the file already holds exactly this text. " + ADDRESSING;
    /** Parameter description. */
    public static final String WRITE_FILE_PATH = "Path of the file to write, for example '/<mount>/summary.md'";
    /** Parameter description. */
    public static final String WRITE_FILE_CONTENT = "The complete new contents of the file";

    /** Tool name. */
    public static final String APPEND_FILE = "append_file";
    /** Description of {@value #APPEND_FILE}. */
    public static final String APPEND_FILE_DESCRIPTION = "Appends text (UTF-8) to the end of a file, creating the "
            + "file (and missing parent directories) if it does not exist. " + ADDRESSING;
    /** Parameter description. */
    public static final String APPEND_FILE_PATH = "Path of the file to append to";
    /** Parameter description. */
    public static final String APPEND_FILE_CONTENT = "The text to add at the end; include a leading newline if "
            + "it should start on a new line";

    /** Tool name. */
    public static final String EDIT_FILE = "edit_file";
    /** Description of {@value #EDIT_FILE}. */
    public static final String EDIT_FILE_DESCRIPTION = "Replaces an exact piece of text in a file and returns a "
            + "unified diff of the change. 'old_text' must occur exactly once unless 'replace_all' is true; "
            + "copy it exactly from read_file, including whitespace. With 'dry_run' the diff is shown and "
            + "nothing is written. " + ADDRESSING;
    /** Parameter description. */
    public static final String EDIT_FILE_PATH = "Path of the file to edit";
    /** Parameter description. */
    public static final String EDIT_FILE_OLD_TEXT = "The exact text to replace (not empty)";
    /** Parameter description. */
    public static final String EDIT_FILE_NEW_TEXT = "The text to put in its place (may be empty to remove it)";
    /** Parameter description. */
    public static final String EDIT_FILE_REPLACE_ALL = "Replace every occurrence instead of requiring exactly "
            + "one (default false)";
    /** Parameter description. */
    public static final String EDIT_FILE_DRY_RUN = "Only show the diff, change nothing (default false)";

    /** Tool name. */
    public static final String COPY_FILE = "copy_file";
    /** Description of {@value #COPY_FILE}. */
    public static final String COPY_FILE_DESCRIPTION = "Copies a file to a new path, possibly in another mount, "
            + "replacing a file already there; missing parent directories are created. A symbolic link is copied as "
            + "a link (cp -P), never the file it points to. " + ADDRESSING;
    /** Parameter description. */
    public static final String COPY_FILE_SOURCE = "Path of the file to copy";
    /** Parameter description. */
    public static final String COPY_FILE_DESTINATION = "Path of the copy (a file path, not a directory)";

    /** Tool name. */
    public static final String MOVE_FILE = "move_file";
    /** Description of {@value #MOVE_FILE}. */
    public static final String MOVE_FILE_DESCRIPTION = "Moves or renames a file, possibly into another mount; "
            + "needs DELETE on the source. Refuses to replace an existing file at the destination. A symbolic link "
            + "is moved as a link (mv), never the file it points to. " + ADDRESSING;
    /** Parameter description. */
    public static final String MOVE_FILE_SOURCE = "Path of the file to move";
    /** Parameter description. */
    public static final String MOVE_FILE_DESTINATION = "New path of the file (a file path, not a directory)";

    /** Tool name. */
    public static final String DELETE_FILE = "delete_file";
    /** Description of {@value #DELETE_FILE}. */
    public static final String DELETE_FILE_DESCRIPTION = "Deletes a file (not a directory: use delete_directory). "
            + "A symbolic link, also one to a directory, is itself deleted, never what it points to (rm). A file that "
            + "does not exist is reported as already absent. " + ADDRESSING;
    /** Parameter description. */
    public static final String DELETE_FILE_PATH = "Path of the file to delete";

    /** Tool name. */
    public static final String FILE_INFO = "file_info";
    /** Description of {@value #FILE_INFO}. */
    public static final String FILE_INFO_DESCRIPTION = "Describes a path: whether it exists, its type, size, "
            + "last modification time and what you may do with it. " + ADDRESSING;
    /** Parameter description. */
    public static final String FILE_INFO_PATH = "Path of the file or directory";

    private FileToolTexts() {
    }
}
