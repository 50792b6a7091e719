package dev.mero.core.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.core.Permission;
import dev.mero.core.guard.Operation;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A tool is declared once: its permissions follow from its operations, its hints are named values. */
class ToolDeclarationTest {

    private static ToolDescriptor.Builder tool() {
        return ToolDescriptor.builder().name("my_tool").description("Does one thing.").hints(ToolHints.CHANGES);
    }

    @Test
    void the_permissions_are_those_of_the_operations() {
        ToolDescriptor tool = tool().operation(Operation.FILE_READ, Operation.FILE_WRITE, Operation.DIRECTORY_CREATE)
                .build();

        assertThat(tool.permissions()).containsExactly(Permission.READ, Permission.WRITE);
    }

    @Test
    void a_permission_added_by_hand_joins_those_of_the_operations() {
        ToolDescriptor tool = tool().operation(Operation.DIRECTORY_LIST).permission(Permission.DELETE).build();

        assertThat(tool.permissions()).containsExactly(Permission.READ, Permission.DELETE);
        assertThat(tool().build().permissions()).isEmpty();
    }

    @Test
    void every_standard_tool_needs_exactly_the_permissions_of_its_operations() {
        List<ToolDescriptor> tools = ToolCatalogue.standard().tools();
        assertThat(tools).hasSizeGreaterThan(15);
        for (ToolDescriptor descriptor : tools) {
            EnumSet<Permission> expected = EnumSet.noneOf(Permission.class);
            descriptor.operations().forEach(operation -> expected.addAll(operation.permissions()));
            assertThat(descriptor.permissions()).as(descriptor.name()).isEqualTo(expected);
        }
        assertThat(ToolCatalogue.standard().find("sync_directory").orElseThrow().permissions())
                .containsExactly(Permission.READ, Permission.WRITE);
    }

    @Test
    void the_named_hints_mean_what_their_names_say() {
        assertHints(ToolHints.READ_ONLY, true, false, true, false);
        assertHints(ToolHints.ADDS, false, false, true, false);
        assertHints(ToolHints.ADDS_EACH_CALL, false, false, false, false);
        assertHints(ToolHints.REPLACES, false, true, true, false);
        assertHints(ToolHints.CHANGES, false, true, false, false);
        assertHints(ToolHints.RUNS_PROGRAMS, false, true, false, true);
        assertThat(ToolHints.READ_ONLY).isEqualTo(ToolHints.of(true, false, true, false));
    }

    private static void assertHints(ToolHints hints, boolean readOnly, boolean destructive, boolean idempotent,
                                    boolean openWorld) {
        assertThat(List.of(hints.readOnly(), hints.destructive(), hints.idempotent(), hints.openWorld()))
                .containsExactly(readOnly, destructive, idempotent, openWorld);
    }
}
