package dev.mero.core.path;

import dev.mero.core.InvalidInputException;
import dev.mero.core.PathEntry;
import dev.mero.core.SecurityContext;
import dev.mero.core.message.Messages;

import static dev.mero.core.Permission.READ;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Inputs refused before the file system is consulted: ordinary errors, never crashes. */
class PathSyntaxTest {

    @TempDir
    Path tmp;

    SecurityContext context;

    @BeforeEach
    void setUp() {
        context = SecurityContext.builder().name("c").path(PathEntry.of(tmp.toString(), "ws", READ)).build();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "\t"})
    void emptyPathsAreAnOrdinaryError(String path) {
        assertThatThrownBy(() -> context.checkPath(path))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> {
                    assertThat(e.isDenial()).isFalse();
                    assertThat(e.toModelText()).startsWith("Error: The path is empty.");
                });
        assertThatThrownBy(() -> context.checkPath(null)).isInstanceOf(InvalidInputException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\u0000b", "a\nb", "a\rb", "\u001b[31mred", "a\u007fb", "a\u0085b",
        "evil\u202Etxt", "zero\u200Bwidth", "bom\uFEFF", "line\u2028sep"})
    void controlAndInvisibleCharactersAreRefused(String path) {
        assertThatThrownBy(() -> context.checkPathAccess(path, READ))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("contains the control or invisible character U+")
                .hasMessageNotContaining("\n");
    }

    @Test
    void theOffendingCharacterIsNamed() {
        assertThatThrownBy(() -> context.checkPath("ab\u0000"))
                .hasMessage("Path 'ab\\x00' contains the control or invisible character U+0000 at index 2; "
                        + "paths may not contain control, zero-width or bidirectional characters.");
    }

    @ParameterizedTest
    @ValueSource(strings = {"~", "~/notes.txt", "~root/.ssh/id_rsa"})
    void tildeIsNotExpanded(String path) {
        assertThatThrownBy(() -> context.checkPath(path))
                .isInstanceOf(InvalidInputException.class)
                .hasMessage("Path " + Messages.quote(path) + " starts with '~', which is not expanded here. "
                        + "Give a path relative to the default mount or under a mounted slug.");
    }

    @ParameterizedTest
    @ValueSource(strings = {"$HOME/x", "a/${HOME}", "$(id)", "x/$_y", "/ws/$PWD"})
    void variablesAreNotExpanded(String path) {
        assertThatThrownBy(() -> context.checkPath(path))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("contains the variable reference")
                .hasMessageContaining("which is not expanded here. Give the literal path.");
    }

    @Test
    void overlongPathsAndNamesAreRefused() {
        String longPath = "a/".repeat(2049);
        assertThatThrownBy(() -> context.checkPath(longPath))
                .isInstanceOf(InvalidInputException.class)
                .hasMessage("The path is 4098 characters long; the limit is 4096. Give a shorter path.");
        String longName = "n".repeat(256);
        assertThatThrownBy(() -> context.checkPath(longName))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("is longer than 255 bytes");
        String multiByte = "é".repeat(128);
        assertThatThrownBy(() -> context.checkPath(multiByte)).isInstanceOf(InvalidInputException.class);
        assertThat(context.checkPath("n".repeat(255)).virtualPath()).isEqualTo("/ws/" + "n".repeat(255));
    }
}
