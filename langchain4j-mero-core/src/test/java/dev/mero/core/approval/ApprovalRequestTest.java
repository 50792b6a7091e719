package dev.mero.core.approval;

import dev.mero.core.path.ContentDigest;
import dev.mero.core.Permission;
import dev.mero.core.PathEntry;
import dev.mero.core.path.ResolvedPath;
import dev.mero.core.SecurityContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ApprovalRequestTest {

    @TempDir
    Path dir;

    @Test
    void carriesTheContentDigestAndTheResolvedTargets() {
        String digest = ContentDigest.of("new text");
        ApprovalRequest request = ApprovalRequest.builder().contextName("w").permissions(Permission.WRITE)
                .subject("/ws/a.txt").contentDigest(digest)
                .resolvedTargets(List.of("link -> /srv/ws/real.txt")).build();

        assertThat(request.contentDigest()).contains(digest);
        assertThat(request.resolvedTargets()).containsExactly("link -> /srv/ws/real.txt");
        ApprovalRequest other = ApprovalRequest.builder().id(request.id()).requestedAt(request.requestedAt())
                .contextName("w").permissions(Permission.WRITE).subject("/ws/a.txt")
                .contentDigest(ContentDigest.of("other")).resolvedTargets(List.of("link -> /srv/ws/real.txt"))
                .build();
        assertThat(other).isNotEqualTo(request);
        assertThatThrownBy(() -> ApprovalRequest.builder().contentDigest("not-a-digest"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(ApprovalRequest.builder().contextName("w").permissions(Permission.READ).subject("s").build()
                .contentDigest()).isEmpty();
    }

    @Test
    void actionNamesOnePermissionAndTheSubject() {
        assertThat(ApprovalRequest.action(Set.of(Permission.WRITE), "/ws/a.txt")).isEqualTo("WRITE: /ws/a.txt");
        assertThat(ApprovalRequest.action(Set.of(Permission.EXECUTE), "git status")).isEqualTo("EXECUTE: git status");
    }

    @Test
    void actionListsSeveralPermissionsInDeclarationOrder() {
        List<Permission> unordered = List.of(Permission.DELETE, Permission.WRITE, Permission.DELETE);
        assertThat(ApprovalRequest.action(unordered, "/ws/a.txt")).isEqualTo("WRITE, DELETE: /ws/a.txt");
    }

    @Test
    void actionNeedsAPermission() {
        assertThatThrownBy(() -> ApprovalRequest.action(Set.of(), "/ws/a.txt"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("An action needs at least one permission, subject '/ws/a.txt'");
    }

    @Test
    void targetFromAResolvedPathGivesVirtualSubjectAndRealTarget() throws Exception {
        Path workspace = Files.createDirectory(dir.resolve("workspace"));
        Path link = Files.createSymbolicLink(dir.resolve("link"), workspace);
        SecurityContext context = SecurityContext.builder().name("worker_1")
                .path(PathEntry.of(link.toString(), "ws", Permission.READ, Permission.WRITE)).build();
        ResolvedPath target = context.checkPathAccess("/ws/a.txt", Permission.WRITE);

        ApprovalRequest request = ApprovalRequest.builder().contextName(context.name())
                .permissions(Permission.WRITE).target(target).details("+hello").build();

        assertThat(request.action()).isEqualTo("WRITE: /ws/a.txt");
        assertThat(request.subject()).contains("/ws/a.txt");
        assertThat(request.target()).contains(workspace.toRealPath().resolve("a.txt"));
        assertThat(request.details()).contains("+hello");
        assertThat(request.argv()).isEmpty();
    }

    @Test
    void argvBecomesTheSubjectOfACommand() {
        List<String> argv = new ArrayList<>(List.of("git", "status"));
        ApprovalRequest request = Requests.command(argv.toArray(String[]::new));
        argv.add("--porcelain");

        assertThat(request.action()).isEqualTo("EXECUTE: git status");
        assertThat(request.subject()).contains("git status");
        assertThat(request.argv()).containsExactly("git", "status");
        assertThat(request.target()).isEmpty();
        assertThatThrownBy(() -> request.argv().add("x")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aCommandWithAWorkingDirectoryIsNamedByItsCommandLine() throws Exception {
        Path workspace = Files.createDirectory(dir.resolve("workspace"));
        SecurityContext context = SecurityContext.builder().name("worker_1")
                .path(PathEntry.of(workspace.toString(), "ws", Permission.EXECUTE)).build();
        ResolvedPath cwd = context.checkPathAccess("/ws", Permission.EXECUTE);

        ApprovalRequest request = ApprovalRequest.builder().contextName("worker_1").permissions(Permission.EXECUTE)
                .target(cwd).argv(List.of("make", "test")).build();

        assertThat(request.action()).isEqualTo("EXECUTE: make test");
        assertThat(request.target()).contains(workspace.toRealPath());
    }

    @Test
    void anExplicitSubjectWinsOverTheTargetsVirtualPath() throws Exception {
        Path workspace = Files.createDirectory(dir.resolve("workspace"));
        SecurityContext context = SecurityContext.builder().name("worker_1")
                .path(PathEntry.of(workspace.toString(), "ws", Permission.WRITE)).build();

        ApprovalRequest request = ApprovalRequest.builder().contextName("worker_1").permissions(Permission.WRITE)
                .subject("/ws/a.txt (append)").target(context.checkPathAccess("/ws/a.txt", Permission.WRITE))
                .build();

        assertThat(request.action()).isEqualTo("WRITE: /ws/a.txt (append)");
    }

    @Test
    void anExplicitActionWins() {
        ApprovalRequest request = ApprovalRequest.builder().contextName("c").permissions(Permission.DELETE)
                .action("DELETE: everything in /ws/tmp").build();

        assertThat(request.action()).isEqualTo("DELETE: everything in /ws/tmp");
        assertThat(request.subject()).isEmpty();
    }

    @Test
    void everyRequestGetsItsOwnIdAndATimestamp() {
        Instant before = Instant.now();
        ApprovalRequest first = Requests.write("/ws/a.txt");
        ApprovalRequest second = Requests.write("/ws/a.txt");

        assertThat(first.id()).isNotEqualTo(second.id());
        assertThat(first).isNotEqualTo(second);
        assertThat(first.requestedAt()).isBetween(before, Instant.now());
    }

    @Test
    void permissionsAreACopy() {
        EnumSet<Permission> permissions = EnumSet.of(Permission.WRITE);
        ApprovalRequest request = ApprovalRequest.builder().contextName("c").permissions(permissions)
                .subject("/ws/a.txt").build();
        permissions.add(Permission.DELETE);

        assertThat(request.permissions()).containsExactly(Permission.WRITE);
        assertThat(request.action()).isEqualTo("WRITE: /ws/a.txt");
    }

    @Test
    void longDetailsAreCutAndMarked() {
        String details = "x".repeat(ApprovalRequest.MAX_DETAILS_LENGTH + 10);
        ApprovalRequest request = ApprovalRequest.builder().contextName("c").permissions(Permission.WRITE)
                .subject("/ws/a.txt").details(details).build();

        assertThat(request.details().orElseThrow())
                .startsWith("x".repeat(ApprovalRequest.MAX_DETAILS_LENGTH))
                .endsWith("\n... (details truncated: 10 more characters)");
    }

    @Test
    void detailsOfExactlyTheLimitAreKeptWholeAndACutNeverSplitsASurrogatePair() {
        String exactly = "y".repeat(ApprovalRequest.MAX_DETAILS_LENGTH);
        assertThat(ApprovalRequest.builder().contextName("c").permissions(Permission.WRITE).subject("/ws/a.txt")
                .details(exactly).build().details()).contains(exactly);
        String pairAtTheCut = "x".repeat(ApprovalRequest.MAX_DETAILS_LENGTH - 1) + "\uD83D\uDE00" + "tail";
        assertThat(ApprovalRequest.builder().contextName("c").permissions(Permission.WRITE).subject("/ws/a.txt")
                .details(pairAtTheCut).build().details())
                .contains("x".repeat(ApprovalRequest.MAX_DETAILS_LENGTH - 1)
                        + "\n... (details truncated: 6 more characters)");
    }

    @Test
    void missingPartsAreRejectedWithAClearMessage() {
        assertThatThrownBy(() -> ApprovalRequest.builder().permissions(Permission.WRITE).subject("/a").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ApprovalRequest needs a context name, got None");
        assertThatThrownBy(() -> ApprovalRequest.builder().contextName("c").subject("/a").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ApprovalRequest needs at least one permission; call permissions(...) on the builder");
        assertThatThrownBy(() -> ApprovalRequest.builder().contextName("c").permissions(Permission.WRITE).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("ApprovalRequest needs a subject");
        assertThatThrownBy(() -> ApprovalRequest.builder().target(Path.of("relative/a.txt")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Approval target 'relative/a.txt' must be an absolute real path");
    }

    @Test
    void anAbsoluteTargetIsKeptAndNamesNoSubject() {
        Path target = dir.resolve("a.txt").toAbsolutePath();

        ApprovalRequest request = ApprovalRequest.builder().contextName("c").permissions(Permission.DELETE)
                .target(target).subject("/ws/a.txt").build();

        assertThat(request.target()).contains(target);
        assertThat(request.action()).isEqualTo("DELETE: /ws/a.txt");
        assertThatThrownBy(() -> ApprovalRequest.builder().contextName("c").permissions(Permission.DELETE)
                .target(target).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("ApprovalRequest needs a subject");
    }

    @Test
    void toStringNamesTheActionButNotTheDetails() {
        ApprovalRequest request = ApprovalRequest.builder().contextName("c").permissions(Permission.WRITE)
                .subject("/ws/a\n.txt").details("password=hunter2").build();

        assertThat(request.toString()).contains("action='WRITE: /ws/a\\n.txt'").doesNotContain("hunter2");
    }
}
