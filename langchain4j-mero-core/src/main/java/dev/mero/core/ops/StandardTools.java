package dev.mero.core.ops;

import dev.mero.core.SecurityContext;
import dev.mero.core.catalogue.CommandToolTexts;
import dev.mero.core.catalogue.DirectoryToolTexts;
import dev.mero.core.catalogue.FileToolTexts;
import dev.mero.core.catalogue.SearchToolTexts;
import dev.mero.core.catalogue.SyncToolTexts;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * The implementation of each tool of the standard catalogue, by name: the one place that says which class runs a
 * catalogue tool ({@link dev.mero.core.catalogue.ToolCatalogue#standard()} says what the model sees of it).
 */
final class StandardTools {

    private static final Map<String, BiFunction<SecurityContext, OperationLimits, ToolOperation>> IMPLEMENTATIONS =
            Map.ofEntries(
                    Map.entry(FileToolTexts.READ_FILE, ReadFile::new),
                    Map.entry(FileToolTexts.WRITE_FILE, WriteFile::new),
                    Map.entry(FileToolTexts.APPEND_FILE, AppendFile::new),
                    Map.entry(FileToolTexts.EDIT_FILE, EditFile::new),
                    Map.entry(FileToolTexts.COPY_FILE, CopyFile::new),
                    Map.entry(FileToolTexts.MOVE_FILE, MoveFile::new),
                    Map.entry(FileToolTexts.DELETE_FILE, (context, limits) -> new DeleteFile(context)),
                    Map.entry(FileToolTexts.FILE_INFO, (context, limits) -> new FileInfo(context)),
                    Map.entry(DirectoryToolTexts.LIST_ROOTS, (context, limits) -> new ListRoots(context)),
                    Map.entry(DirectoryToolTexts.LIST_DIRECTORY, ListDirectory::new),
                    Map.entry(DirectoryToolTexts.DIRECTORY_TREE, DirectoryTree::new),
                    Map.entry(DirectoryToolTexts.CREATE_DIRECTORY, (context, limits) -> new CreateDirectory(context)),
                    Map.entry(DirectoryToolTexts.DELETE_DIRECTORY, DeleteDirectory::new),
                    Map.entry(SearchToolTexts.FIND_FILES, FindFiles::new),
                    Map.entry(SearchToolTexts.SEARCH_TEXT, SearchText::new),
                    Map.entry(CommandToolTexts.RUN_COMMAND, (context, limits) -> new RunCommand(context)),
                    Map.entry(SyncToolTexts.SYNC_DIRECTORY, SyncDirectory::new));

    private StandardTools() {
    }

    /** The operation of the standard tool of this name, bound to a context, or {@code null} for another name. */
    static ToolOperation bind(String name, SecurityContext context, OperationLimits limits) {
        BiFunction<SecurityContext, OperationLimits, ToolOperation> implementation = IMPLEMENTATIONS.get(name);
        return implementation == null ? null : implementation.apply(context, limits);
    }
}
