package dev.mero.core.path;

import dev.mero.core.PathAccessDeniedException;
import dev.mero.core.PathEntry;
import dev.mero.core.SecurityContext;

import static dev.mero.core.Permission.READ;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A host path outside every entry that the file system cannot canonicalise ({@code /dev/fd/0}, a namespace
 * magic link) was reported as an ordinary failure ({@code Error: ... could not be resolved}) instead of being
 * denied: the agent learned about the host and a caller treating only denials as refusals was misled.
 */
class PathResolverAttackTest {

    @TempDir
    Path tmp;

    SecurityContext context;

    @BeforeEach
    void setUp() throws IOException {
        Path ws = Files.createDirectories(tmp.toRealPath().resolve("ws"));
        context = SecurityContext.builder().name("worker_1").path(PathEntry.of(ws.toString(), "ws", READ)).build();
    }

    @Test
    void a_magic_link_outside_every_entry_is_denied() {
        assertThatThrownBy(() -> context.checkPathAccess("/proc/self/ns/net", READ))
                .isInstanceOf(PathAccessDeniedException.class)
                .hasMessage("Path '/proc/self/ns/net' is an absolute path that isn't covered by any configured "
                        + "PathEntry, and its leading segment doesn't match a mounted slug (mounted: '/ws').");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/proc/self/ns/net", "/proc/self/ns/user", "/proc/self/ns/net/x", "/dev/fd/0",
            "/proc/self/fd/0", "/proc/self/fd/1/x", "/proc/self/ns/../ns/mnt"})
    void every_unresolvable_host_path_is_a_denial(String path) {
        assertThatThrownBy(() -> context.checkPath(path)).isInstanceOf(PathAccessDeniedException.class);
    }
}
