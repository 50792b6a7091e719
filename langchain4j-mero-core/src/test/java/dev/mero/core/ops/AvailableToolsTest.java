package dev.mero.core.ops;

import dev.mero.core.catalogue.ToolCatalogue;
import dev.mero.core.catalogue.ToolDescriptor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which tools a binding publishes for a context: only those the context could ever let run. */
class AvailableToolsTest {

    @TempDir
    Path temp;
    OpsWorkspace w;

    @BeforeEach
    void setUp() throws IOException {
        w = new OpsWorkspace(temp);
    }

    private static List<String> names(SecurityContext context) {
        return MeroOperations.forContext(context).availableTools().stream().map(ToolDescriptor::name).toList();
    }

    @Test
    void aWriteScopeAloneOffersTheWritersButNotDirectoryCreation() {
        assertThat(names(w.contextBuilder().scopes("files:file:write").build()))
                .containsExactly("write_file", "append_file", "list_roots");
        assertThat(names(w.contextBuilder().scopes("files:directory:create").build()))
                .containsExactly("list_roots", "create_directory");
    }

    @Test
    void aPermissionNoMountGrantsOrEveryMountDeniesRemovesTheToolsThatNeedIt() {
        SecurityContext readOnly = SecurityContext.builder().name("ro")
                .path(PathEntry.of(w.docs.toString(), "docs", Permission.READ)).build();
        assertThat(names(readOnly)).containsExactly("read_file", "file_info", "list_roots", "list_directory",
                "directory_tree", "find_files", "search_text");
        SecurityContext denied = SecurityContext.builder().name("deny")
                .path(PathEntry.builder().path(w.ws).slug("ws").allow(Permission.READ, Permission.WRITE,
                        Permission.DELETE).deny(Permission.DELETE).build()).build();
        assertThat(names(denied)).doesNotContain("delete_file", "delete_directory", "move_file")
                .contains("write_file", "copy_file", "sync_directory");
        SecurityContext ceiling = w.contextBuilder().permissions(Permission.READ).build();
        assertThat(names(ceiling)).isEqualTo(names(readOnly));
        SecurityContext twoMounts = SecurityContext.builder().name("two")
                .path(PathEntry.of(w.docs.toString(), "docs", Permission.READ))
                .path(PathEntry.of(w.ws.toString(), "ws", Permission.READ, Permission.DELETE)).build();
        assertThat(names(twoMounts)).contains("delete_file", "delete_directory").doesNotContain("write_file");
    }

    @Test
    void runCommandNeedsAnAllowRuleBesidesTheExecutePermission() {
        SecurityContext noRules = SecurityContext.builder().name("x")
                .path(PathEntry.of(w.ws.toString(), "ws", Permission.READ, Permission.EXECUTE)).build();
        assertThat(names(noRules)).doesNotContain("run_command");
        SecurityContext withRule = SecurityContext.builder().name("x")
                .path(PathEntry.of(w.ws.toString(), "ws", Permission.READ, Permission.EXECUTE))
                .allowCommand("echo").build();
        assertThat(names(withRule)).contains("run_command");
    }

    @Test
    void theOperationsKeepWhatTheyWereBuiltWith() {
        SecurityContext context = w.contextBuilder().build();
        OperationLimits limits = OperationLimits.builder().maxReadBytes(10).build();
        ToolCatalogue catalogue = ToolCatalogue.standard();
        MeroOperations ops = MeroOperations.builder(context).limits(limits).catalogue(catalogue).build();
        assertThat(ops.context()).isSameAs(context);
        assertThat(ops.limits()).isSameAs(limits);
        assertThat(ops.catalogue()).isSameAs(catalogue);
        assertThat(ops.call("read_file", "{\"path\":\"/ws/notes.txt\"}")).contains("hello note");
    }
}
