package dev.mero.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link PathEntry#of(Path, String, Permission...)}: the same entry as the {@code String} form, from a {@link Path}. */
class PathEntryOfPathTest {

    @TempDir
    Path tmp;

    @Test
    void thePathFormBuildsTheEntryTheStringFormBuilds() throws IOException {
        Path workspace = Files.createDirectory(tmp.resolve("workspace"));

        PathEntry fromPath = PathEntry.of(workspace, "ws", Permission.READ, Permission.WRITE);
        PathEntry fromString = PathEntry.of(workspace.toString(), "ws", Permission.READ, Permission.WRITE);

        assertThat(fromPath.slug()).isEqualTo("ws").isEqualTo(fromString.slug());
        assertThat(fromPath.mountPoint()).isEqualTo("/ws");
        assertThat(fromPath.path()).isEqualTo(fromString.path());
        assertThat(fromPath.realPath()).isEqualTo(workspace.toRealPath()).isEqualTo(fromString.realPath());
        assertThat(fromPath.allowed()).containsExactly(Permission.READ, Permission.WRITE);
        assertThat(fromPath.denied()).isEmpty();
        assertThat(fromPath.approvalRequired()).isEmpty();
    }

    @Test
    void aContextBuiltFromThePathFormDecidesLikeAnyOther() throws IOException {
        Path workspace = Files.createDirectory(tmp.resolve("workspace"));
        Files.writeString(workspace.resolve("notes.txt"), "three little words");
        SecurityContext context = SecurityContext.builder()
                .path(PathEntry.of(workspace, "ws", Permission.READ))
                .build();

        assertThat(context.checkPathAccess("/ws/notes.txt", Permission.READ).realPath())
                .isEqualTo(workspace.toRealPath().resolve("notes.txt"));
        assertThatThrownBy(() -> context.checkPathAccess("/ws/notes.txt", Permission.WRITE))
                .isInstanceOf(PermissionDeniedException.class);
    }

    @Test
    void aMissingDirectoryOrABadSlugIsRefusedAsInTheStringForm() {
        Path missing = tmp.resolve("missing");

        assertThatThrownBy(() -> PathEntry.of(missing, "ws", Permission.READ))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PathEntry.of(tmp, "Not A Slug", Permission.READ))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PathEntry.of((Path) null, "ws", Permission.READ))
                .isInstanceOf(NullPointerException.class);
    }
}
