package dev.mero.core;

import dev.mero.core.message.Messages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PathEntryTest {

    @TempDir
    Path tmp;

    @Test
    void shorthandAllowsExactlyTheGivenPermissions() throws IOException {
        PathEntry entry = PathEntry.of(tmp.toString(), "ws", Permission.READ, Permission.WRITE);

        assertThat(entry.slug()).isEqualTo("ws");
        assertThat(entry.mountPoint()).isEqualTo("/ws");
        assertThat(entry.allowed()).containsExactly(Permission.READ, Permission.WRITE);
        assertThat(entry.denied()).isEmpty();
        assertThat(entry.realPath()).isEqualTo(tmp.toRealPath());
    }

    @Test
    void anEntryAllowsNothingUnlessTold() {
        PathEntry entry = PathEntry.builder().path(tmp).slug("ws").build();

        assertThat(entry.allowed()).isEmpty();
        assertThat(entry.denied()).isEmpty();
        assertThat(entry.approvalRequired()).isEmpty();
    }

    @Test
    void builderKeepsAllowsDeniesAndApprovalsApart() {
        PathEntry entry = PathEntry.builder().path(tmp).slug("ws")
                .allow(Permission.READ, Permission.WRITE, Permission.DELETE)
                .deny(Permission.DELETE)
                .requireApproval(Permission.WRITE)
                .build();

        assertThat(entry.allowed()).containsExactly(Permission.READ, Permission.WRITE, Permission.DELETE);
        assertThat(entry.denied()).containsExactly(Permission.DELETE);
        assertThat(entry.approvalRequired()).containsExactly(Permission.WRITE);
        assertThatThrownBy(() -> entry.allowed().add(Permission.EXECUTE))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aSymlinkedRootIsCanonicalisedAtBuild() throws IOException {
        Path real = Files.createDirectory(tmp.resolve("real"));
        Path link = Files.createSymbolicLink(tmp.resolve("link"), real);

        PathEntry entry = PathEntry.of(link.toString(), "ws", Permission.READ);

        assertThat(entry.path()).isEqualTo(link);
        assertThat(entry.realPath()).isEqualTo(real.toRealPath());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "WS", "-ws", "_ws", "w s", "w/s", "ws!", "é", "a\u0000b"})
    void aMalformedSlugFailsNamingTheValue(String slug) {
        assertThatThrownBy(() -> PathEntry.of(tmp.toString(), slug))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Invalid slug " + Messages.quote(slug) + ":");
    }

    @Test
    void aMissingSlugOrAnOverlongSlugFails() {
        assertThatThrownBy(() -> PathEntry.builder().path(tmp).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Invalid slug None");
        String longSlug = "a".repeat(65);
        assertThatThrownBy(() -> PathEntry.of(tmp.toString(), longSlug))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(longSlug);
        assertThat(PathEntry.of(tmp.toString(), "a".repeat(64)).slug()).hasSize(64);
    }

    @Test
    void aMissingDirectoryFailsNamingThePath() {
        Path missing = tmp.resolve("missing");

        assertThatThrownBy(() -> PathEntry.of(missing.toString(), "ws", Permission.READ))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("PathEntry '/ws': directory '" + missing + "' does not exist or is not a directory");
    }

    @Test
    void aFileIsNotADirectory() throws IOException {
        Path file = Files.writeString(tmp.resolve("file.txt"), "x");

        assertThatThrownBy(() -> PathEntry.of(file.toString(), "ws"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not exist or is not a directory");
    }

    @Test
    void aMissingPathFails() {
        assertThatThrownBy(() -> PathEntry.builder().slug("ws").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs a path");
        assertThatThrownBy(() -> PathEntry.builder().path("a\u0000b"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Invalid PathEntry path");
    }

    @Test
    void aRelativeDirectoryIsMadeAbsolute() {
        PathEntry entry = PathEntry.of(".", "cwd", Permission.READ);

        assertThat(entry.path()).isAbsolute();
        assertThat(entry.realPath()).isEqualTo(Path.of("").toAbsolutePath().normalize());
    }
}
