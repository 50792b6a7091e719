package dev.mero.core.message;

import dev.mero.core.Permission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MessagesTest {

    @Test
    void permissionsAreRenderedInDeclarationOrderWithoutDuplicates() {
        assertThat(Messages.permissions(List.of(Permission.WRITE, Permission.READ, Permission.WRITE)))
                .isEqualTo("['READ', 'WRITE']");
        assertThat(Messages.permissions(Set.of())).isEqualTo("[]");
        assertThat(Messages.permissions(List.of(Permission.DELETE))).isEqualTo("['DELETE']");
    }

    @Test
    void quotingEscapesWhatCouldBreakOrHideAMessage() {
        assertThat(Messages.quote("notes.txt")).isEqualTo("'notes.txt'");
        assertThat(Messages.quote("it's")).isEqualTo("'it\\'s'");
        assertThat(Messages.quote("a\nb\tc\\")).isEqualTo("'a\\nb\\tc\\\\'");
        assertThat(Messages.quote("a\u0000b\u007f")).isEqualTo("'a\\x00b\\x7f'");
        assertThat(Messages.quote("evil\u202Etxt.exe")).isEqualTo("'evil\\u202etxt.exe'");
        assertThat(Messages.quote("zero\u200Bwidth")).isEqualTo("'zero\\u200bwidth'");
        assertThat(Messages.quote("größe")).isEqualTo("'größe'");
        assertThat(Messages.quote(null)).isEqualTo("None");
    }

    @Test
    void controlAndInvisibleCharactersAreRecognised() {
        assertThat(Messages.isControlOrInvisible('\u0000')).isTrue();
        assertThat(Messages.isControlOrInvisible('\u0085')).isTrue();
        assertThat(Messages.isControlOrInvisible('\u200D')).isTrue();
        assertThat(Messages.isControlOrInvisible('\u2028')).isTrue();
        assertThat(Messages.isControlOrInvisible('\uFEFF')).isTrue();
        assertThat(Messages.isControlOrInvisible('a')).isFalse();
        assertThat(Messages.isControlOrInvisible(' ')).isFalse();
        assertThat(Messages.isControlOrInvisible('ß')).isFalse();
        assertThat(Messages.codePoint(0x202E)).isEqualTo("U+202E");
    }

    @Test
    void ioFailuresAreDescribedWithoutClassNamesOrHostPaths() {
        assertThat(Messages.ioReason(new java.nio.file.AccessDeniedException("/secret/x"))).isEqualTo("permission denied");
        assertThat(Messages.ioReason(new java.nio.file.NoSuchFileException("/secret/x")))
                .isEqualTo("no such file or directory");
        assertThat(Messages.ioReason(new java.nio.file.NotDirectoryException("/secret/x")))
                .isEqualTo("a name in the path is not a directory");
        assertThat(Messages.ioReason(new java.nio.file.FileSystemLoopException("/secret/x")))
                .isEqualTo("too many levels of symbolic links");
        assertThat(Messages.ioReason(new java.io.IOException("/secret/x"))).isEqualTo("an input/output error");
        assertThat(Messages.ioReason(new java.io.IOException("No space left on device")))
                .isEqualTo("No space left on device");
        assertThat(Messages.ioReason(new java.io.IOException("No space left on device: /secret/x")))
                .isEqualTo("an input/output error");
        assertThat(Messages.ioReason(new java.io.IOException())).isEqualTo("an input/output error");
        assertThat(Messages.ioReason(new java.nio.file.FileAlreadyExistsException("/secret/x")))
                .isEqualTo("a file is in the way where a directory is needed");
        assertThat(Messages.ioReason(new java.nio.file.FileSystemException("/secret/x", null,
                "No space left on device"))).isEqualTo("No space left on device");
    }

    @Test
    void aMissingPermissionCollectionIsNamed() {
        assertThatThrownBy(() -> Messages.permissions(null))
                .isInstanceOf(NullPointerException.class).hasMessage("permissions");
    }
}
