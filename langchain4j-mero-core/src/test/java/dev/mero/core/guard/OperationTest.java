package dev.mero.core.guard;

import dev.mero.core.Permission;

import dev.mero.core.scope.ScopeSet;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

class OperationTest {

    @Test
    void everyOperationRequiresTheDocumentedConcreteScope() {
        Map<Operation, String> table = Arrays.stream(Operation.values())
                .collect(Collectors.toMap(Function.identity(), operation -> operation.scope().toString()));

        assertThat(table).containsExactlyInAnyOrderEntriesOf(Map.of(
                Operation.FILE_READ, "files:file:read",
                Operation.FILE_WRITE, "files:file:write",
                Operation.FILE_DELETE, "files:file:delete",
                Operation.DIRECTORY_LIST, "files:directory:list",
                Operation.DIRECTORY_CREATE, "files:directory:create",
                Operation.COMMAND_EXECUTE, "commands:command:execute"));
        assertThat(Operation.values()).allSatisfy(operation -> assertThat(operation.scope().isConcrete()).isTrue());
    }

    @Test
    void everyOperationNeedsOnePathPermission() {
        assertThat(Operation.FILE_READ.permissions()).containsExactly(Permission.READ);
        assertThat(Operation.FILE_WRITE.permissions()).containsExactly(Permission.WRITE);
        assertThat(Operation.FILE_DELETE.permissions()).containsExactly(Permission.DELETE);
        assertThat(Operation.DIRECTORY_LIST.permissions()).containsExactly(Permission.READ);
        assertThat(Operation.DIRECTORY_CREATE.permissions()).containsExactly(Permission.WRITE);
        assertThat(Operation.COMMAND_EXECUTE.permissions()).containsExactly(Permission.EXECUTE);
    }

    @Test
    void readingFilesDoesNotCoverListingDirectories() {
        ScopeSet readOnly = ScopeSet.of("files:*:read");

        assertThat(readOnly.permits(Operation.FILE_READ.scope())).isTrue();
        assertThat(readOnly.permits(Operation.DIRECTORY_LIST.scope())).isFalse();
        assertThat(readOnly.permits(Operation.COMMAND_EXECUTE.scope())).isFalse();
    }
}
