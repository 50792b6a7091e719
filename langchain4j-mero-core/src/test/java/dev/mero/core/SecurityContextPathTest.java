package dev.mero.core;

import dev.mero.core.path.ResolvedPath;

import static dev.mero.core.Permission.DELETE;
import static dev.mero.core.Permission.EXECUTE;
import static dev.mero.core.Permission.READ;
import static dev.mero.core.Permission.WRITE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Path addressing, containment and the seed's messages, on real directories and symlinks. */
class SecurityContextPathTest {

    @TempDir
    Path tmp;

    Path root;
    Path ws;
    Path docs;
    Path outside;
    SecurityContext context;

    @BeforeEach
    void setUp() throws IOException {
        root = tmp.toRealPath();
        ws = Files.createDirectories(root.resolve("srv/ws"));
        docs = Files.createDirectories(root.resolve("srv/docs"));
        outside = Files.createDirectories(root.resolve("outside"));
        Files.createDirectories(ws.resolve("src/main"));
        Files.writeString(ws.resolve("notes.txt"), "notes");
        Files.writeString(docs.resolve("guide.md"), "guide");
        Files.writeString(outside.resolve("secret.txt"), "secret");
        context = SecurityContext.builder()
                .name("worker_1")
                .path(PathEntry.of(ws.toString(), "ws", READ, WRITE))
                .path(PathEntry.of(docs.toString(), "docs", READ))
                .build();
    }

    @Nested
    class Addressing {

        @Test
        void aRelativePathResolvesAgainstTheFirstEntry() {
            ResolvedPath target = context.checkPath("notes.txt");

            assertThat(target.slug()).isEqualTo("ws");
            assertThat(target.virtualPath()).isEqualTo("/ws/notes.txt");
            assertThat(target.realPath()).isEqualTo(ws.resolve("notes.txt"));
            assertThat(target.input()).isEqualTo("notes.txt");
            assertThat(target.checkedPermissions()).isEmpty();
            assertThat(target.effectivePermissions()).containsExactly(READ, WRITE);
        }

        @Test
        void aSlugPathAddressesItsMount() {
            ResolvedPath target = context.checkPathAccess("/docs/guide.md", READ);

            assertThat(target.slug()).isEqualTo("docs");
            assertThat(target.virtualPath()).isEqualTo("/docs/guide.md");
            assertThat(target.realPath()).isEqualTo(docs.resolve("guide.md"));
            assertThat(target.checkedPermissions()).containsExactly(READ);
        }

        @Test
        void theMountRootItselfIsAddressable() {
            assertThat(context.checkPath("/ws").virtualPath()).isEqualTo("/ws");
            assertThat(context.checkPath("/ws/").isMountRoot()).isTrue();
            assertThat(context.checkPath(".").virtualPath()).isEqualTo("/ws");
            assertThat(context.checkPath("./src/./main/").virtualPath()).isEqualTo("/ws/src/main");
            assertThat(context.checkPath("//ws///src//").virtualPath()).isEqualTo("/ws/src");
        }

        @Test
        void anAbsoluteHostPathInsideAnEntryIsAccepted() {
            ResolvedPath target = context.checkPathAccess(ws.resolve("notes.txt").toString(), READ, WRITE);

            assertThat(target.virtualPath()).isEqualTo("/ws/notes.txt");
            assertThat(target.realPath()).isEqualTo(ws.resolve("notes.txt"));
        }

        @Test
        void aMissingTargetResolvesUnderItsDeepestExistingAncestor() {
            ResolvedPath target = context.checkPathAccess("src/new/deeper/file.txt", WRITE);

            assertThat(target.realPath()).isEqualTo(ws.resolve("src/new/deeper/file.txt"));
            assertThat(target.virtualPath()).isEqualTo("/ws/src/new/deeper/file.txt");
            assertThat(Files.exists(ws.resolve("src/new"))).as("a check creates nothing").isFalse();
        }

        @Test
        void dotDotThatStaysInsideTheMountIsApplied() {
            assertThat(context.checkPath("src/main/../../notes.txt").realPath()).isEqualTo(ws.resolve("notes.txt"));
            assertThat(context.checkPath("/ws/src/../notes.txt").virtualPath()).isEqualTo("/ws/notes.txt");
        }

        @Test
        void nothingIsDecodedOrExpanded() {
            assertThat(context.checkPath("%2e%2e/x").realPath()).isEqualTo(ws.resolve("%2e%2e/x"));
            assertThat(context.checkPath("a$").realPath()).isEqualTo(ws.resolve("a$"));
            assertThat(context.checkPath("x/~/y").realPath()).isEqualTo(ws.resolve("x/~/y"));
            assertThat(context.checkPath("..\\..\\etc").realPath()).isEqualTo(ws.resolve("..\\..\\etc"));
        }

        @Test
        void aHostPathWhoseLeadingSegmentIsAlsoASlugIsReadAsAHostPath() {
            // the slug equals the host path's first name (e.g. "tmp"): the host reading wins when it lies inside
            String firstName = root.getName(0).toString();
            SecurityContext ctx = SecurityContext.builder().name("c")
                    .path(PathEntry.of(docs.toString(), firstName, READ)).build();

            ResolvedPath target = ctx.checkPath(docs.resolve("guide.md").toString());

            assertThat(target.realPath()).isEqualTo(docs.resolve("guide.md"));
            assertThat(target.virtualPath()).isEqualTo("/" + firstName + "/guide.md");
            assertThat(ctx.checkPath("/" + firstName + "/guide.md").realPath()).isEqualTo(docs.resolve("guide.md"));
        }
    }

    @Nested
    class SeedMessages {

        @Test
        void relativeEscapeIsNotCovered() {
            assertThatThrownBy(() -> context.checkPath("../../outside/secret.txt"))
                    .isInstanceOf(PathAccessDeniedException.class)
                    .hasMessage("Path '../../outside/secret.txt' (resolves outside the mounted entries) is not "
                            + "covered by any PathEntry in context 'worker_1'.")
                    .satisfies(e -> assertThat(((PathAccessDeniedException) e).auditDetail())
                            .contains("resolves to '" + outside.resolve("secret.txt") + "'"));
        }

        @Test
        void absolutePathOutsideEveryEntryNamesTheMounts() {
            String path = outside.resolve("secret.txt").toString();

            assertThatThrownBy(() -> context.checkPath(path))
                    .isInstanceOf(PathAccessDeniedException.class)
                    .hasMessage("Path '" + path + "' is an absolute path that isn't covered by any configured "
                            + "PathEntry, and its leading segment doesn't match a mounted slug "
                            + "(mounted: '/ws', '/docs').");
        }

        @Test
        void etcPasswdIsDenied() {
            assertThatThrownBy(() -> context.checkPathAccess("/etc/passwd", READ))
                    .isInstanceOf(PathAccessDeniedException.class)
                    .hasMessage("Path '/etc/passwd' is an absolute path that isn't covered by any configured "
                            + "PathEntry, and its leading segment doesn't match a mounted slug "
                            + "(mounted: '/ws', '/docs').");
        }

        @Test
        void anEntryDenyNamesTheEntry() {
            SecurityContext ctx = SecurityContext.builder().name("name")
                    .path(PathEntry.builder().path(ws).slug("slug").allow(READ, WRITE).deny(WRITE).build())
                    .build();

            assertThatThrownBy(() -> ctx.checkPathAccess("x", WRITE))
                    .isInstanceOf(PathAccessDeniedException.class)
                    .hasMessage("Path 'x' is denied permission(s) ['WRITE'] by '/slug' in context 'name'.");
        }

        @Test
        void theContextCeilingIsReported() {
            SecurityContext ctx = SecurityContext.builder().name("name")
                    .path(PathEntry.of(ws.toString(), "ws", READ, WRITE, DELETE))
                    .permissions(READ, WRITE)
                    .build();

            assertThatThrownBy(() -> ctx.checkPathAccess("notes.txt", DELETE))
                    .isInstanceOf(PermissionDeniedException.class)
                    .hasMessage("Context 'name' lacks permission(s) ['DELETE'] (has: ['READ', 'WRITE']).");
            assertThatThrownBy(() -> ctx.checkPermission(DELETE, READ))
                    .isInstanceOf(PermissionDeniedException.class)
                    .hasMessage("Context 'name' lacks permission(s) ['DELETE'] (has: ['READ', 'WRITE']).");
        }

        @Test
        void anEntryThatLacksAPermissionIsReported() {
            SecurityContext ctx = SecurityContext.builder().name("name")
                    .path(PathEntry.of(ws.toString(), "slug", READ, WRITE))
                    .build();

            assertThatThrownBy(() -> ctx.checkPathAccess("x", DELETE))
                    .isInstanceOf(PermissionDeniedException.class)
                    .hasMessage("'/slug' in context 'name' lacks permission(s) ['DELETE'] for 'x' "
                            + "(allows: ['READ', 'WRITE']).");
        }

        @Test
        void severalMissingPermissionsAreListedInOrder() {
            assertThatThrownBy(() -> context.checkPathAccess("/docs/guide.md", DELETE, WRITE, READ))
                    .isInstanceOf(PermissionDeniedException.class)
                    .hasMessage("'/docs' in context 'worker_1' lacks permission(s) ['WRITE', 'DELETE'] for "
                            + "'/docs/guide.md' (allows: ['READ']).");
        }

        @Test
        void everyDenialIsAMeroToolsDenial() {
            assertThatThrownBy(() -> context.checkPathAccess("/docs/x", WRITE))
                    .isInstanceOfSatisfying(MeroToolsException.class, e -> {
                        assertThat(e.isDenial()).isTrue();
                        assertThat(e.errorCode()).isEqualTo("permission_denied");
                        assertThat(e.toModelText()).startsWith("Denied: '/docs' in context 'worker_1'");
                    });
        }
    }

    @Nested
    class Containment {

        @Test
        void aSiblingWithTheSamePrefixIsNotInside() throws IOException {
            Path evil = Files.createDirectories(root.resolve("srv/ws_evil"));
            Files.writeString(evil.resolve("x.txt"), "evil");

            assertThatThrownBy(() -> context.checkPath(evil.resolve("x.txt").toString()))
                    .isInstanceOf(PathAccessDeniedException.class)
                    .hasMessageContaining("is an absolute path that isn't covered");
            assertThatThrownBy(() -> context.checkPath("../ws_evil/x.txt"))
                    .isInstanceOf(PathAccessDeniedException.class)
                    .hasMessage("Path '../ws_evil/x.txt' (resolves outside the mounted entries) is not covered by "
                            + "any PathEntry in context 'worker_1'.");
            assertThatThrownBy(() -> context.checkPath(ws + "_evil/x.txt"))
                    .isInstanceOf(PathAccessDeniedException.class);
        }

        @Test
        void dotDotMayNotClimbOutOfAMountEvenIntoAnotherMount() {
            assertThatThrownBy(() -> context.checkPath("/ws/../docs/guide.md"))
                    .isInstanceOf(PathAccessDeniedException.class)
                    .hasMessage("Path '/ws/../docs/guide.md' (resolves outside the mounted entries) is not covered "
                            + "by any PathEntry in context 'worker_1'.");
            assertThatThrownBy(() -> context.checkPath("src/../../ws/notes.txt"))
                    .isInstanceOf(PathAccessDeniedException.class);
            assertThatThrownBy(() -> context.checkPath(ws + "/../docs/guide.md"))
                    .isInstanceOf(PathAccessDeniedException.class);
        }

        @ParameterizedTest
        @ValueSource(strings = {"..", "../", "/ws/..", "/..", "/../../..", "a/b/../../..", "../../../../../../etc/passwd",
            "/ws/../../../../etc/passwd", "/docs/../ws/notes.txt"})
        void dotDotChainsAreDenied(String path) {
            assertThatThrownBy(() -> context.checkPath(path)).isInstanceOf(PathAccessDeniedException.class);
        }

        @Test
        void aContextWithoutEntriesDeniesEveryPath() {
            SecurityContext empty = SecurityContext.builder().name("empty").build();

            assertThatThrownBy(() -> empty.checkPath("notes.txt"))
                    .isInstanceOf(PathAccessDeniedException.class)
                    .hasMessage("Path 'notes.txt' is not covered by any PathEntry in context 'empty' "
                            + "(the context mounts no paths).");
            assertThatThrownBy(() -> empty.checkPath(ws.toString()))
                    .isInstanceOf(PathAccessDeniedException.class)
                    .hasMessageEndingWith("doesn't match a mounted slug (mounted: none).");
        }

        @Test
        void theFileSystemRootIsNotCovered() {
            assertThatThrownBy(() -> context.checkPath("/"))
                    .isInstanceOf(PathAccessDeniedException.class)
                    .hasMessageContaining("is an absolute path that isn't covered");
        }
    }

    @Nested
    class Symlinks {

        @Test
        void aLinkInsideTheMountIsJudgedByItsTarget() throws IOException {
            Files.createSymbolicLink(ws.resolve("alias"), ws.resolve("src"));

            ResolvedPath target = context.checkPathAccess("alias/main", READ);

            assertThat(target.realPath()).isEqualTo(ws.resolve("src/main"));
            assertThat(target.virtualPath()).isEqualTo("/ws/src/main");
        }

        @Test
        void aLinkToOutsideIsDeniedWithItsTarget() throws IOException {
            Files.createSymbolicLink(ws.resolve("leak"), outside);

            assertThatThrownBy(() -> context.checkPathAccess("leak/secret.txt", READ))
                    .isInstanceOf(PathAccessDeniedException.class)
                    .hasMessage("Path 'leak/secret.txt' (resolves outside the mounted entries) is not covered by "
                            + "any PathEntry in context 'worker_1'.");
            assertThatThrownBy(() -> context.checkPathAccess("leak/new.txt", WRITE))
                    .isInstanceOf(PathAccessDeniedException.class);
            assertThatThrownBy(() -> context.checkPathAccess("/ws/leak", READ))
                    .isInstanceOf(PathAccessDeniedException.class);
        }

        @Test
        void aFileLinkToOutsideIsDenied() throws IOException {
            Files.createSymbolicLink(ws.resolve("passwd"), Path.of("/etc/passwd"));

            assertThatThrownBy(() -> context.checkPathAccess("passwd", READ))
                    .isInstanceOf(PathAccessDeniedException.class)
                    .hasMessageContaining("(resolves outside the mounted entries)")
                    .hasMessageNotContaining("/etc/passwd");
        }

        @Test
        void aChainOfLinksIsFollowedToTheEnd() throws IOException {
            Files.createSymbolicLink(root.resolve("hop2"), outside);
            Files.createSymbolicLink(ws.resolve("hop1"), root.resolve("hop2"));
            Files.createSymbolicLink(ws.resolve("good1"), ws.resolve("good2"));
            Files.createSymbolicLink(ws.resolve("good2"), ws.resolve("notes.txt"));

            assertThatThrownBy(() -> context.checkPathAccess("hop1/secret.txt", READ))
                    .isInstanceOf(PathAccessDeniedException.class);
            assertThat(context.checkPathAccess("good1", READ).realPath()).isEqualTo(ws.resolve("notes.txt"));
        }

        @Test
        void aLinkLoopIsDenied() throws IOException {
            Files.createSymbolicLink(ws.resolve("loop1"), ws.resolve("loop2"));
            Files.createSymbolicLink(ws.resolve("loop2"), ws.resolve("loop1"));
            Files.createSymbolicLink(ws.resolve("self"), ws.resolve("self"));

            assertThatThrownBy(() -> context.checkPathAccess("loop1", READ))
                    .isInstanceOf(PathAccessDeniedException.class)
                    .hasMessage("Path 'loop1' goes through the symbolic link '/ws/loop1', whose target does not exist or loops; such a link is never followed or "
                            + "written through in context 'worker_1'.");
            assertThatThrownBy(() -> context.checkPathAccess("self/x", WRITE))
                    .isInstanceOf(PathAccessDeniedException.class);
        }

        @Test
        void aDanglingLinkIsNeverWrittenThrough() throws IOException {
            Files.createSymbolicLink(ws.resolve("dangling-out"), outside.resolve("created-by-agent.txt"));
            Files.createSymbolicLink(ws.resolve("dangling-in"), ws.resolve("not-yet.txt"));
            Files.createSymbolicLink(ws.resolve("dangling-dir"), outside.resolve("nope"));

            assertThatThrownBy(() -> context.checkPathAccess("dangling-out", WRITE))
                    .isInstanceOf(PathAccessDeniedException.class)
                    .hasMessageContaining("goes through the symbolic link");
            assertThatThrownBy(() -> context.checkPathAccess("dangling-in", WRITE))
                    .isInstanceOf(PathAccessDeniedException.class);
            assertThatThrownBy(() -> context.checkPathAccess("dangling-dir/sub/file", WRITE))
                    .isInstanceOf(PathAccessDeniedException.class);
            assertThat(outside.resolve("created-by-agent.txt")).doesNotExist();
            assertThat(ws.resolve("not-yet.txt")).doesNotExist();
        }

        @Test
        void aLinkIntoAnotherMountIsDecidedByThatMount() throws IOException {
            Files.createSymbolicLink(ws.resolve("manuals"), docs);

            ResolvedPath read = context.checkPathAccess("manuals/guide.md", READ);
            assertThat(read.slug()).isEqualTo("docs");
            assertThat(read.virtualPath()).isEqualTo("/docs/guide.md");

            assertThatThrownBy(() -> context.checkPathAccess("manuals/guide.md", WRITE))
                    .isInstanceOf(PermissionDeniedException.class)
                    .hasMessage("'/docs' in context 'worker_1' lacks permission(s) ['WRITE'] for "
                            + "'manuals/guide.md' (allows: ['READ']).");
        }

        @Test
        void aSymlinkedMountRootWorks() throws IOException {
            Path link = Files.createSymbolicLink(root.resolve("ws-link"), ws);
            SecurityContext ctx = SecurityContext.builder().name("c")
                    .path(PathEntry.of(link.toString(), "ws", READ)).build();

            assertThat(ctx.checkPathAccess("notes.txt", READ).realPath()).isEqualTo(ws.resolve("notes.txt"));
            assertThat(ctx.checkPathAccess(link.resolve("notes.txt").toString(), READ).virtualPath())
                    .isEqualTo("/ws/notes.txt");
            assertThat(ctx.checkPathAccess(ws.resolve("notes.txt").toString(), READ).virtualPath())
                    .isEqualTo("/ws/notes.txt");
        }

        @Test
        void aHostLinkOutsideEveryMountThatPointsInsideIsJudgedByItsTarget() throws IOException {
            Path door = Files.createSymbolicLink(outside.resolve("door"), ws);

            assertThat(context.checkPathAccess(door.resolve("notes.txt").toString(), READ).virtualPath())
                    .isEqualTo("/ws/notes.txt");
        }

        @Test
        void dotDotAfterALinkIsAppliedLexically() throws IOException {
            Files.createSymbolicLink(ws.resolve("out"), outside);

            // "out/.." is the mount root lexically, never the parent of the link's target
            assertThat(context.checkPath("out/../notes.txt").realPath()).isEqualTo(ws.resolve("notes.txt"));
        }
    }

    @Nested
    class NestedEntries {

        Path inner;

        @BeforeEach
        void inner() throws IOException {
            inner = Files.createDirectories(ws.resolve("src"));
        }

        @Test
        void theInnermostEntrySuppliesTheAllows() {
            SecurityContext ctx = SecurityContext.builder().name("n")
                    .path(PathEntry.of(ws.toString(), "ws", READ, WRITE, DELETE))
                    .path(PathEntry.of(inner.toString(), "src", READ))
                    .build();

            assertThat(ctx.checkPathAccess("notes.txt", DELETE).slug()).isEqualTo("ws");
            ResolvedPath viaOuter = ctx.checkPathAccess("src/main", READ);
            assertThat(viaOuter.slug()).isEqualTo("src");
            assertThat(viaOuter.virtualPath()).isEqualTo("/src/main");
            assertThatThrownBy(() -> ctx.checkPathAccess("src/main/x", WRITE))
                    .isInstanceOf(PermissionDeniedException.class)
                    .hasMessage("'/src' in context 'n' lacks permission(s) ['WRITE'] for 'src/main/x' "
                            + "(allows: ['READ']).");
        }

        @Test
        void anInnerEntryCanGrantMoreThanItsParent() {
            SecurityContext ctx = SecurityContext.builder().name("n")
                    .path(PathEntry.of(ws.toString(), "ws", READ))
                    .path(PathEntry.of(inner.toString(), "scratch", READ, WRITE))
                    .build();

            assertThat(ctx.checkPathAccess("/scratch/out.txt", WRITE).virtualPath()).isEqualTo("/scratch/out.txt");
            assertThatThrownBy(() -> ctx.checkPathAccess("/ws/out.txt", WRITE))
                    .isInstanceOf(PermissionDeniedException.class);
        }

        @Test
        void anOuterDenyWinsOverAnInnerAllow() {
            SecurityContext ctx = SecurityContext.builder().name("n")
                    .path(PathEntry.builder().path(ws).slug("ws").allow(READ).deny(DELETE).build())
                    .path(PathEntry.of(inner.toString(), "src", READ, WRITE, DELETE))
                    .build();

            assertThatThrownBy(() -> ctx.checkPathAccess("/src/main", DELETE))
                    .isInstanceOf(PathAccessDeniedException.class)
                    .hasMessage("Path '/src/main' is denied permission(s) ['DELETE'] by '/ws' in context 'n'.");
            assertThat(ctx.checkPathAccess("/src/main", WRITE).effectivePermissions())
                    .containsExactly(READ, WRITE);
        }

        @Test
        void theSameDirectoryMountedTwiceIsJudgedByTheStrictestView() {
            SecurityContext ctx = SecurityContext.builder().name("n")
                    .path(PathEntry.of(ws.toString(), "rw", READ, WRITE))
                    .path(PathEntry.of(ws.toString(), "ro", READ))
                    .build();

            assertThatThrownBy(() -> ctx.checkPathAccess("/rw/notes.txt", WRITE))
                    .isInstanceOf(PermissionDeniedException.class)
                    .hasMessage("'/ro' in context 'n' lacks permission(s) ['WRITE'] for '/rw/notes.txt' "
                            + "(allows: ['READ']).");
            assertThat(ctx.checkPathAccess("/ro/notes.txt", READ).effectivePermissions()).containsExactly(READ);
        }

        @Test
        void aDenyOnTheSameDirectoryUnderAnotherSlugWins() {
            SecurityContext ctx = SecurityContext.builder().name("n")
                    .path(PathEntry.of(ws.toString(), "a", READ, WRITE))
                    .path(PathEntry.builder().path(ws).slug("b").allow(READ).deny(WRITE).build())
                    .build();

            assertThatThrownBy(() -> ctx.checkPathAccess("/a/notes.txt", WRITE))
                    .isInstanceOf(PathAccessDeniedException.class)
                    .hasMessage("Path '/a/notes.txt' is denied permission(s) ['WRITE'] by '/b' in context 'n'.");
        }
    }

    @Nested
    class Ceiling {

        @Test
        void theCeilingCapsEveryEntry() {
            SecurityContext ctx = SecurityContext.builder().name("ro")
                    .path(PathEntry.of(ws.toString(), "ws", READ, WRITE, EXECUTE, DELETE))
                    .permissions(READ)
                    .build();

            assertThat(ctx.checkPathAccess("notes.txt", READ).effectivePermissions()).containsExactly(READ);
            assertThatThrownBy(() -> ctx.checkPathAccess("notes.txt", WRITE))
                    .isInstanceOf(PermissionDeniedException.class)
                    .hasMessage("Context 'ro' lacks permission(s) ['WRITE'] (has: ['READ']).");
        }

        @Test
        void theDefaultCeilingIsEveryPermission() {
            assertThat(context.permissions()).containsExactly(READ, WRITE, EXECUTE, DELETE);
            context.checkPermission(READ, WRITE, EXECUTE, DELETE);
        }

        @Test
        void anEmptyCeilingGrantsNothing() {
            SecurityContext ctx = SecurityContext.builder().name("none")
                    .path(PathEntry.of(ws.toString(), "ws", READ)).permissions().build();

            assertThatThrownBy(() -> ctx.checkPermission(READ))
                    .isInstanceOf(PermissionDeniedException.class)
                    .hasMessage("Context 'none' lacks permission(s) ['READ'] (has: []).");
            assertThat(ctx.checkPath("notes.txt").effectivePermissions()).isEmpty();
        }
    }

    @Nested
    class Builder {

        @Test
        void duplicateSlugsAreRefused() {
            assertThatThrownBy(() -> SecurityContext.builder().name("dup")
                    .path(PathEntry.of(ws.toString(), "ws", READ))
                    .path(PathEntry.of(docs.toString(), "ws", READ))
                    .build())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("Duplicate slug 'ws' in context 'dup': every PathEntry needs its own slug");
        }

        @Test
        void aBadNameIsRefused() {
            assertThatThrownBy(() -> SecurityContext.builder().name(" "))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Invalid context name ' '");
            assertThatThrownBy(() -> SecurityContext.builder().name("a\nb"))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'a\\nb'");
        }

        @Test
        void pathsAreKeptInOrderAndImmutable() {
            PathEntry a = PathEntry.of(ws.toString(), "a", READ);
            PathEntry b = PathEntry.of(docs.toString(), "b", READ);
            SecurityContext ctx = SecurityContext.builder().paths(a, b).build();

            assertThat(ctx.paths()).containsExactly(a, b);
            assertThat(ctx.name()).isEqualTo("default");
            assertThatThrownBy(() -> ctx.paths().clear()).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> ctx.permissions().clear()).isInstanceOf(UnsupportedOperationException.class);
        }

        @Test
        void nullArgumentsFailFast() {
            assertThatThrownBy(() -> context.checkPathAccess("x", (Permission) null))
                    .isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> SecurityContext.builder().path(null)).isInstanceOf(NullPointerException.class);
        }
    }

    @Nested
    class Recheck {

        @Test
        void anUnchangedTargetPasses() throws IOException {
            ResolvedPath target = context.checkPathAccess("new.txt", WRITE);
            Files.writeString(target.realPath(), "x");

            assertThat(context.recheck(target).realPath()).isEqualTo(target.realPath());
        }

        @Test
        void aLinkSwappedInAfterTheCheckIsCaught() throws IOException {
            Path dir = Files.createDirectories(ws.resolve("reports"));
            ResolvedPath target = context.checkPathAccess("reports/out.txt", WRITE);
            Files.delete(dir);
            Files.createSymbolicLink(ws.resolve("reports"), outside);

            assertThatThrownBy(() -> context.recheck(target))
                    .isInstanceOf(PathAccessDeniedException.class)
                    .hasMessageContaining("is not covered by any PathEntry");
        }

        @Test
        void aLinkSwappedToAnotherPlaceInsideIsReported() throws IOException {
            Path a = Files.createDirectories(ws.resolve("a"));
            Files.createDirectories(ws.resolve("b"));
            Files.createSymbolicLink(ws.resolve("cur"), a);
            ResolvedPath target = context.checkPathAccess("cur/x.txt", WRITE);
            Files.delete(ws.resolve("cur"));
            Files.createSymbolicLink(ws.resolve("cur"), ws.resolve("b"));

            assertThatThrownBy(() -> context.recheck(target))
                    .isInstanceOf(PathAccessDeniedException.class)
                    .hasMessage("Path 'cur/x.txt' changed while it was being used: it resolved to '/ws/a/x.txt' "
                            + "when checked and now resolves to '/ws/b/x.txt'. Nothing was done; check the path and "
                            + "try again.");
        }
    }
}
