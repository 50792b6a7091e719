package dev.mero.core.path;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The path inside a mount, cut from the text of a canonical path, is what {@link Path#relativize} gives: the
 * virtual path in every message and the name every protected-path glob is matched against depend on it.
 */
class RelativePathTextTest {

    @Test
    void aPathBelowTheRootIsItsNamesAfterTheRoot() {
        for (String[] c : new String[][] {{"/srv/ws", "/srv/ws/a.txt"}, {"/srv/ws", "/srv/ws/a/b/c.txt"},
                {"/srv/ws", "/srv/ws"}, {"/", "/etc/passwd"}, {"/", "/"}, {"/srv/ws", "/srv/wsx/a"},
                {"/srv/ws", "/srv/w"}, {"/srv/ws", "/srv"}, {"/srv/ws", "/other/a"}}) {
            Path root = Path.of(c[0]);
            Path real = Path.of(c[1]);
            assertThat(PathResolver.relative(root, real)).as(c[0] + " / " + c[1])
                    .isEqualTo(root.relativize(real).toString());
        }
        assertThat(PathResolver.relative(Path.of("/srv/ws"), Path.of("/srv/ws/a/b"))).isEqualTo("a/b");
        assertThat(PathResolver.relative(Path.of("/srv/ws"), Path.of("/srv/wsx/a"))).isEqualTo("../wsx/a");
    }
}
