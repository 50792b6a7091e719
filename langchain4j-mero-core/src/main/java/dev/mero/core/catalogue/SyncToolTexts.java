package dev.mero.core.catalogue;

/**
 * The names and model-facing texts of the sync tool, as compile-time constants shared by the
 * {@link ToolCatalogue} and annotation-based bindings.
 */
public final class SyncToolTexts {

    /** Tool name. */
    public static final String SYNC_DIRECTORY = "sync_directory";
    /** Description of {@value #SYNC_DIRECTORY}. */
    public static final String SYNC_DIRECTORY_DESCRIPTION = "Makes a destination directory a copy of a source "
            + "directory, one way (like rsync), possibly between mounts: copies new files, updates changed ones "
            + "and, with 'delete_extraneous', deletes files the source does not have. Reports what it copied, "
            + "updated and deleted; 'dry_run' only reports. Symbolic links are skipped. " + FileToolTexts.ADDRESSING;
    /** Parameter description. */
    public static final String SYNC_DIRECTORY_SOURCE = "Directory to copy from";
    /** Parameter description. */
    public static final String SYNC_DIRECTORY_DESTINATION = "Directory to copy into (created if missing)";
    /** Parameter description. */
    public static final String SYNC_DIRECTORY_DELETE_EXTRANEOUS = "Delete files and directories in the "
            + "destination that the source does not have (default false)";
    /** Parameter description. */
    public static final String SYNC_DIRECTORY_DRY_RUN = "Only report what would change (default false)";

    private SyncToolTexts() {
    }
}
