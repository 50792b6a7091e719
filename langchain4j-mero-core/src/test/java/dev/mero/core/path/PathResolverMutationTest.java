package dev.mero.core.path;

import dev.mero.core.InvalidInputException;
import dev.mero.core.PathAccessDeniedException;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.PermissionDeniedException;
import dev.mero.core.SecurityContext;

import static dev.mero.core.Permission.READ;
import static dev.mero.core.Permission.WRITE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Path resolution edges PIT showed untested: entry order, a slug shadowing a host root, syntax limits. */
class PathResolverMutationTest {

    @TempDir
    Path tmp;

    Path root;
    Path ws;
    Path sub;

    @BeforeEach
    void setUp() throws IOException {
        root = tmp.toRealPath();
        ws = Files.createDirectories(root.resolve("ws"));
        sub = Files.createDirectories(ws.resolve("sub"));
        Files.writeString(ws.resolve("notes.txt"), "notes");
        Files.writeString(sub.resolve("f.txt"), "f");
    }

    @Test
    void theInnermostEntryDecidesEvenWhenItIsConfiguredFirst() {
        SecurityContext context = SecurityContext.builder().name("c")
                .path(PathEntry.of(sub.toString(), "sub", READ))
                .path(PathEntry.of(ws.toString(), "ws", READ, WRITE))
                .build();

        assertThatThrownBy(() -> context.checkPathAccess("/ws/sub/f.txt", WRITE))
                .isInstanceOf(PermissionDeniedException.class)
                .hasMessage("'/sub' in context 'c' lacks permission(s) ['WRITE'] for '/ws/sub/f.txt' "
                        + "(allows: ['READ']).");
        ResolvedPath read = context.checkPathAccess("/ws/sub/f.txt", READ);
        assertThat(read.slug()).isEqualTo("sub");
        assertThat(read.virtualPath()).isEqualTo("/sub/f.txt");
        assertThat(read.effectivePermissions()).containsExactly(READ);
        assertThat(context.checkPathAccess("/ws/notes.txt", WRITE).virtualPath()).isEqualTo("/ws/notes.txt");
    }

    @Test
    void anEntryDirectoryWrittenAsAHostPathIsThatEntryEvenIfASlugNamesTheHostsFirstDirectory() throws IOException {
        String hostTop = root.getName(0).toString();
        assumeTrue(hostTop.matches("[a-z0-9][a-z0-9_-]*"), "the temp directory's first name must be a valid slug");
        Path other = Files.createDirectories(root.resolve("other"));
        SecurityContext context = SecurityContext.builder().name("c")
                .path(PathEntry.of(ws.toString(), "ws", READ))
                .path(PathEntry.of(other.toString(), hostTop, READ))
                .build();

        ResolvedPath resolved = context.checkPath(ws.toString());

        assertThat(resolved.slug()).isEqualTo("ws");
        assertThat(resolved.virtualPath()).isEqualTo("/ws");
        assertThat(resolved.realPath()).isEqualTo(ws);
        assertThat(resolved.isMountRoot()).isTrue();
    }

    @Test
    void aHostPathThroughANestedEntryMayClimbBackInsideTheOutermostEntryWhateverTheConfigurationOrder() {
        SecurityContext context = SecurityContext.builder().name("c")
                .path(PathEntry.of(sub.toString(), "sub", READ))
                .path(PathEntry.of(ws.toString(), "ws", READ))
                .build();

        ResolvedPath notes = context.checkPath(sub + "/../notes.txt");

        assertThat(notes.virtualPath()).isEqualTo("/ws/notes.txt");
        assertThat(notes.realPath()).isEqualTo(ws.resolve("notes.txt"));
    }

    @Test
    void anEntryConfiguredThroughALinkIsFoundByBothItsDirectoriesButNeverClimbedOutOf() throws IOException {
        Path real = Files.createDirectories(root.resolve("deep").resolve("ws"));
        Files.writeString(real.resolve("notes.txt"), "notes");
        Path link = Files.createSymbolicLink(root.resolve("link"), real);
        SecurityContext context = SecurityContext.builder().name("c")
                .path(PathEntry.of(link.toString(), "ws", READ)).build();

        ResolvedPath mount = context.checkPath(real.toString());
        assertThat(mount.isMountRoot()).isTrue();
        assertThat(mount.realPath()).isEqualTo(real);
        assertThat(context.checkPath(link + "/notes.txt").realPath()).isEqualTo(real.resolve("notes.txt"));
        // the configured directory is a mount too: '..' may not leave it, even to land back inside by another way
        assertThatThrownBy(() -> context.checkPath(link + "/../deep/ws/notes.txt"))
                .isInstanceOf(PathAccessDeniedException.class)
                .hasMessage("Path '" + link + "/../deep/ws/notes.txt' (resolves outside the mounted entries) is not "
                        + "covered by any PathEntry in context 'c'.");
    }

    @Test
    void aMountTurnedIntoALinkIsExplainedAsChangedForTheMountAndForAMissingName() throws IOException {
        Path elsewhere = Files.createDirectories(root.resolve("elsewhere"));
        SecurityContext context = SecurityContext.builder().name("c")
                .path(PathEntry.of(ws.toString(), "ws", READ, WRITE)).build();
        Files.move(ws, root.resolve("ws-old"));
        Files.createSymbolicLink(ws, elsewhere);

        for (String path : new String[] {"/ws", "/ws/new.txt"}) {
            assertThatThrownBy(() -> context.checkPath(path)).as(path)
                    .isInstanceOf(PathAccessDeniedException.class)
                    .hasMessageContaining("The mount '/ws' in context 'c' is no longer the directory it was")
                    .hasMessageNotContaining(root.toString());
        }
    }

    @Test
    void commandOutputNamesEachHostDirectoryByItsInnermostMountAndByItsConfiguredSpelling() throws IOException {
        Path link = Files.createSymbolicLink(root.resolve("link"), ws);
        PathResolver resolver = new PathResolver("c", List.of(
                PathEntry.of(sub.toString(), "sub", READ),
                PathEntry.of(link.toString(), "ws", READ)), EnumSet.allOf(Permission.class));

        assertThat(resolver.virtualised(sub + "/f.txt\n" + ws + "/notes.txt\n" + link + "/notes.txt\n"))
                .isEqualTo("/sub/f.txt\n/ws/notes.txt\n/ws/notes.txt\n");
        // a directory counts only where a whole path starts: 'mnt/<ws>' and 'x<ws>' are other paths
        assertThat(resolver.virtualised("mnt/" + ws + " x" + ws)).isEqualTo("mnt/" + ws + " x" + ws);
        assertThat(resolver.virtualised("")).isEmpty();
    }

    @Test
    void aPathOfExactlyTheMaximumLengthPassesTheSyntaxCheck() {
        String path = "a/".repeat(PathSyntax.MAX_PATH_CHARS / 2);

        assertThat(path).hasSize(PathSyntax.MAX_PATH_CHARS);
        assertThat(PathSyntax.components(path)).hasSize(PathSyntax.MAX_PATH_CHARS / 2).containsOnly("a");
    }

    @Test
    void aVariableReferenceAfterAHarmlessDollarIsNamedAtItsOwnPosition() {
        assertThatThrownBy(() -> PathSyntax.components("cost$5/$HOME/x"))
                .isInstanceOf(InvalidInputException.class)
                .hasMessage("Path 'cost$5/$HOME/x' contains the variable reference '$H...', which is not expanded "
                        + "here. Give the literal path.");
        assertThat(PathSyntax.components("cost$5/a$-b/$")).containsExactly("cost$5", "a$-b", "$");
    }

    @Test
    void aTooLongNameShowsThePathAbbreviatedToEightyCharacters() {
        String path = "dir/" + "n".repeat(PathSyntax.MAX_NAME_BYTES + 1);

        assertThatThrownBy(() -> PathSyntax.components(path))
                .isInstanceOf(InvalidInputException.class)
                .hasMessage("A name in path '" + path.substring(0, 77) + "...' is longer than 255 bytes. Give a "
                        + "shorter name.");
    }

    @Test
    void aResolvedPathKnowsWhetherItIsTheMountRootAndComparesByInputAndTarget() {
        SecurityContext context = SecurityContext.builder().name("c")
                .path(PathEntry.of(ws.toString(), "ws", READ, WRITE)).build();

        ResolvedPath notes = context.checkPath("notes.txt");
        ResolvedPath again = context.checkPath("notes.txt");
        ResolvedPath spelledOtherwise = context.checkPath("/ws/notes.txt");

        assertThat(notes.isMountRoot()).isFalse();
        assertThat(context.checkPath("/ws").isMountRoot()).isTrue();
        assertThat(notes).isEqualTo(again).hasSameHashCodeAs(again);
        assertThat(notes).isNotEqualTo(spelledOtherwise).isNotEqualTo(context.checkPath("sub"));
        assertThat(notes.toString()).contains("'notes.txt'", "/ws/notes.txt", ws.resolve("notes.txt").toString());
    }

    @Test
    void entriesAndContextsNameThemselvesInToString() {
        PathEntry entry = PathEntry.of(ws.toString(), "ws", READ);
        SecurityContext context = SecurityContext.builder().name("worker_1").path(entry).build();

        assertThat(entry.toString()).contains("ws", ws.toString());
        assertThat(context.toString()).contains("'worker_1'", "['READ', 'WRITE', 'EXECUTE', 'DELETE']");
    }
}
