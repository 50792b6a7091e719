package dev.mero.core.catalogue;

/**
 * The names and model-facing texts of the directory tools, as compile-time constants shared by the
 * {@link ToolCatalogue} and annotation-based bindings.
 */
public final class DirectoryToolTexts {

    /** Tool name. */
    public static final String LIST_ROOTS = "list_roots";
    /** Description of {@value #LIST_ROOTS}. */
    public static final String LIST_ROOTS_DESCRIPTION = "Lists the mounts you can use: each mount's virtual path "
            + "('/<mount>'), what you may do there and what needs a human's approval. Call it first to learn "
            + "how to address files.";

    /** Tool name. */
    public static final String LIST_DIRECTORY = "list_directory";
    /** Description of {@value #LIST_DIRECTORY}. */
    public static final String LIST_DIRECTORY_DESCRIPTION = "Lists the entries of a directory, sorted by name; "
            + "names of directories end with '/'. '/' lists the mounts. " + FileToolTexts.ADDRESSING;
    /** Parameter description. */
    public static final String LIST_DIRECTORY_PATH = "Path of the directory to list, for example '/<mount>'";

    /** Tool name. */
    public static final String DIRECTORY_TREE = "directory_tree";
    /** Description of {@value #DIRECTORY_TREE}. */
    public static final String DIRECTORY_TREE_DESCRIPTION = "Shows the files and directories below a directory "
            + "as an indented tree, down to a depth; large trees are cut with a note. Symbolic links are shown "
            + "but not followed. " + FileToolTexts.ADDRESSING;
    /** Parameter description. */
    public static final String DIRECTORY_TREE_PATH = "Path of the directory at the top of the tree";
    /** Parameter description. */
    public static final String DIRECTORY_TREE_MAX_DEPTH = "How many levels to show, 1 for the directory's own "
            + "entries (default 3)";

    /** Tool name. */
    public static final String CREATE_DIRECTORY = "create_directory";
    /** Description of {@value #CREATE_DIRECTORY}. */
    public static final String CREATE_DIRECTORY_DESCRIPTION = "Creates a directory and any missing parents. "
            + "A directory that already exists is reported as such, not as an error. " + FileToolTexts.ADDRESSING;
    /** Parameter description. */
    public static final String CREATE_DIRECTORY_PATH = "Path of the directory to create";

    /** Tool name. */
    public static final String DELETE_DIRECTORY = "delete_directory";
    /** Description of {@value #DELETE_DIRECTORY}. */
    public static final String DELETE_DIRECTORY_DESCRIPTION = "Deletes a directory. Without 'recursive' only an "
            + "empty directory is deleted; with it, everything inside too (symbolic links are removed, never "
            + "followed). A mount itself cannot be deleted, nor a symbolic link to a directory (delete_file removes "
            + "the link). " + FileToolTexts.ADDRESSING;
    /** Parameter description. */
    public static final String DELETE_DIRECTORY_PATH = "Path of the directory to delete";
    /** Parameter description. */
    public static final String DELETE_DIRECTORY_RECURSIVE = "Also delete everything inside (default false)";

    private DirectoryToolTexts() {
    }
}
