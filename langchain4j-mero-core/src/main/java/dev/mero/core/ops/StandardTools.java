package dev.mero.core.ops;

import dev.mero.core.SecurityContext;
import dev.mero.core.catalogue.CommandToolTexts;
import dev.mero.core.catalogue.DirectoryToolTexts;
import dev.mero.core.catalogue.FileToolTexts;
import dev.mero.core.catalogue.SearchToolTexts;
import dev.mero.core.catalogue.SyncToolTexts;
import dev.mero.core.metrics.MeroMetrics;
import java.util.Map;

/**
 * The implementation of each tool of the standard catalogue, by name: the one place that says which class runs a
 * catalogue tool ({@link dev.mero.core.catalogue.ToolCatalogue#standard()} says what the model sees of it).
 */
final class StandardTools {

    /** How a standard tool's operation is made for a context. */
    private interface Implementation {
        ToolOperation bind(SecurityContext context, OperationLimits limits, MeroMetrics metrics);
    }

    private static final Map<String, Implementation> IMPLEMENTATIONS =
            Map.ofEntries(
                    Map.entry(FileToolTexts.READ_FILE, (context, limits, metrics) -> new ReadFile(context, limits)),
                    Map.entry(FileToolTexts.WRITE_FILE, (context, limits, metrics) -> new WriteFile(context, limits)),
                    Map.entry(FileToolTexts.APPEND_FILE, (context, limits, metrics) -> new AppendFile(context, limits)),
                    Map.entry(FileToolTexts.EDIT_FILE, (context, limits, metrics) -> new EditFile(context, limits)),
                    Map.entry(FileToolTexts.COPY_FILE, (context, limits, metrics) -> new CopyFile(context, limits)),
                    Map.entry(FileToolTexts.MOVE_FILE, (context, limits, metrics) -> new MoveFile(context, limits)),
                    Map.entry(FileToolTexts.DELETE_FILE, (context, limits, metrics) -> new DeleteFile(context)),
                    Map.entry(FileToolTexts.FILE_INFO, (context, limits, metrics) -> new FileInfo(context)),
                    Map.entry(DirectoryToolTexts.LIST_ROOTS, (context, limits, metrics) -> new ListRoots(context)),
                    Map.entry(DirectoryToolTexts.LIST_DIRECTORY, (context, limits, metrics) -> new ListDirectory(context, limits)),
                    Map.entry(DirectoryToolTexts.DIRECTORY_TREE, (context, limits, metrics) -> new DirectoryTree(context, limits)),
                    Map.entry(DirectoryToolTexts.CREATE_DIRECTORY, (context, limits, metrics) -> new CreateDirectory(context)),
                    Map.entry(DirectoryToolTexts.DELETE_DIRECTORY, (context, limits, metrics) -> new DeleteDirectory(context, limits)),
                    Map.entry(SearchToolTexts.FIND_FILES, (context, limits, metrics) -> new FindFiles(context, limits)),
                    Map.entry(SearchToolTexts.SEARCH_TEXT, (context, limits, metrics) -> new SearchText(context, limits)),
                    Map.entry(CommandToolTexts.RUN_COMMAND, (context, limits, metrics) -> new RunCommand(context, metrics)),
                    Map.entry(SyncToolTexts.SYNC_DIRECTORY, (context, limits, metrics) -> new SyncDirectory(context, limits)));

    private StandardTools() {
    }

    /** The operation of the standard tool of this name, bound to a context, or {@code null} for another name. */
    static ToolOperation bind(String name, SecurityContext context, OperationLimits limits, MeroMetrics metrics) {
        Implementation implementation = IMPLEMENTATIONS.get(name);
        return implementation == null ? null : implementation.bind(context, limits, metrics);
    }
}
