package dev.mero.core.command;

import dev.mero.core.CommandDeniedException;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Where a program is shown inside the command sandbox, and which host directories it needs mounted for that. */
class BubblewrapPlaceTest {

    @TempDir
    Path tmp;

    private Path ws;
    private SandboxView view;

    @BeforeEach
    void setUp() throws IOException {
        ws = Files.createDirectories(tmp.toRealPath().resolve("ws"));
        view = SandboxView.of(List.of(PathEntry.of(ws.toString(), "ws", Permission.READ, Permission.EXECUTE)),
                EnumSet.allOf(Permission.class));
    }

    private Bubblewrap.Program place(String executable, String real) {
        return Bubblewrap.place(view, Path.of(executable), Path.of(real), "prog");
    }

    @Test
    void aProgramInsideAMountIsRunWhereTheMountShowsIt() {
        Bubblewrap.Program program = Bubblewrap.place(view, ws.resolve("bin/tool"), ws.resolve("bin/tool"), "tool");

        assertThat(program).isEqualTo(new Bubblewrap.Program("/ws/bin/tool", List.of()));
    }

    @Test
    void aSystemProgramNeedsNoMountOfItsOwn() {
        assertThat(place("/usr/bin/git", "/usr/bin/git")).isEqualTo(new Bubblewrap.Program("/usr/bin/git", List.of()));
        assertThat(place("/bin/sh", "/usr/bin/dash")).isEqualTo(new Bubblewrap.Program("/bin/sh", List.of()));
    }

    @Test
    void anyOtherProgramHasTheDirectoriesOfItsPathAndOfItsRealFileMountedOnce() {
        assertThat(place("/opt/tools/bin/x", "/opt/tools/bin/x"))
                .isEqualTo(new Bubblewrap.Program("/opt/tools/bin/x", List.of(Path.of("/opt/tools/bin"))));
        assertThat(place("/opt/a/x", "/opt/b/x"))
                .isEqualTo(new Bubblewrap.Program("/opt/a/x", List.of(Path.of("/opt/a"), Path.of("/opt/b"))));
        assertThat(place("/usr/local/bin/x", "/opt/b/x"))
                .isEqualTo(new Bubblewrap.Program("/usr/local/bin/x", List.of(Path.of("/opt/b"))));
        assertThat(place("/tmp/tools/x", "/tmp/tools/x"))
                .isEqualTo(new Bubblewrap.Program("/tmp/tools/x", List.of(Path.of("/tmp/tools"))));
    }

    @Test
    void aProgramWhoseDirectoryWouldLandInsideAMountOrASystemDirectoryIsRefused() {
        for (String executable : List.of("/ws/tool", "/ws/bin/tool", "/etc/tools/x", "/proc/x")) {
            assertThatThrownBy(() -> place(executable, executable)).as(executable)
                    .isInstanceOf(CommandDeniedException.class)
                    .hasMessage("Command 'prog' cannot run: its program is not visible inside the command sandbox. "
                            + "Install it on the command search path under /usr, or in a directory the sandbox can "
                            + "show.");
        }
        assertThatThrownBy(() -> place("/opt/tools/x", "/etc/x/real")).isInstanceOf(CommandDeniedException.class);
    }
}
