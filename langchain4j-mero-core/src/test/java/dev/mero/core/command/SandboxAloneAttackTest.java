package dev.mero.core.command;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The second layer proven on its own: every class of attack from the issue, run as a real program inside the
 * sandbox with the policy's checks switched off ({@link CommandRunner#runInSandbox}, which runs exactly the
 * argument vector it is given). The context mounts {@code ws} (read, write, execute) and {@code docs} (read
 * only); {@code outside} holds a secret and is not mounted; symbolic links lead from {@code ws} to it by host
 * path and by relative path. After each attack, nothing outside the writable mount has changed, and neither
 * the secret nor a host path appears in what the program printed.
 */
class SandboxAloneAttackTest {

    private static final String GIT = "/usr/bin/git";

    @TempDir
    Path tmp;

    private Workspace w;
    private String secret;
    private SandboxView view;
    private final CommandRunner runner = CommandRunner.builder()
            .environment("GIT_CONFIG_NOSYSTEM", "1")
            .environment("GIT_CONFIG_GLOBAL", "/dev/null")
            .build();
    private Map<String, String> outsideBefore;
    private Map<String, String> docsBefore;

    @BeforeEach
    void setUp() throws IOException {
        w = new Workspace(tmp);
        secret = "TOPSECRET-" + UUID.randomUUID();
        Files.writeString(w.outside.resolve("key.txt"), secret);
        Files.writeString(w.outside.resolve("dir/inner.txt"), secret);
        Files.createSymbolicLink(w.ws.resolve("rel"), Path.of("../outside"));
        git(w.outside, "init", "-q");
        git(w.outside, "add", "key.txt");
        git(w.outside, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "secret");
        SecurityContext context = w.context().build();
        view = SandboxView.of(context.paths(), context.permissions());
        outsideBefore = snapshot(w.outside);
        docsBefore = snapshot(w.docs);
    }

    @Test
    void programs_that_follow_links_find_nothing_behind_them() {
        for (List<String> argv : List.of(
                List.of("/usr/bin/cp", "-rL", "/ws/dirlink", "/ws/copy1"),
                List.of("/usr/bin/cp", "--dereference", "/ws/link", "/ws/copy2"),
                List.of("/usr/bin/cp", "-rL", "/ws/rel", "/ws/copy3"),
                List.of("/usr/bin/ls", "-LR", "/ws"),
                List.of("/usr/bin/du", "-L", "-a", "/ws"),
                List.of("/usr/bin/diff", "-r", "/ws/rel", "/docs"),
                List.of("/usr/bin/cat", "/ws/link", "/ws/rel/key.txt", "/ws/dirlink/inner.txt"),
                List.of("/usr/bin/find", "-L", "/ws", "-name", "*.txt"))) {
            CommandResult result = attack(argv, "/ws");
            assertContained(result);
        }
        assertThat(w.ws.resolve("copy1")).doesNotExist();
        assertThat(w.ws.resolve("copy2")).doesNotExist();
    }

    @Test
    void options_that_change_directory_reach_only_the_sandbox() {
        String hostOutside = w.outside.toString();
        assertContained(attack(List.of("/usr/bin/tar", "-C", "/ws/..", "-cf", "/ws/a.tar", "outside"), "/ws"));
        assertContained(attack(List.of("/usr/bin/tar", "--directory=" + hostOutside, "-cf", "/ws/b.tar", "."), "/ws"));
        assertContained(attack(List.of("/usr/bin/tar", "-C", "/ws/rel", "-cf", "/ws/c.tar", "."), "/ws"));
        assertContained(attack(List.of(GIT, "-C", hostOutside, "show", "HEAD:key.txt"), "/ws"));
        assertContained(attack(List.of(GIT, "-C", "/ws/rel", "log"), "/ws"));
        assertContained(attack(List.of("/usr/bin/ln", "-s", "../outside", "/ws/sub/planted"), "/ws/sub"));
        assertContained(attack(List.of("/usr/bin/cat", "/ws/sub/planted/key.txt"), "/ws"));
        for (String archive : List.of("a.tar", "b.tar", "c.tar")) {
            assertThat(bytesOf(w.ws.resolve(archive))).doesNotContain(secret);
        }
    }

    @Test
    void lists_of_files_read_from_a_file_name_only_what_the_sandbox_shows() throws IOException {
        String list = w.outside.resolve("key.txt") + "\0/ws/rel/key.txt\0../outside/key.txt\0";
        Files.writeString(w.ws.resolve("list"), list);

        assertContained(attack(List.of("/usr/bin/wc", "--files0-from=/ws/list"), "/ws"));
        assertContained(attack(List.of("/usr/bin/du", "--files0-from=/ws/list"), "/ws"));
        assertContained(attack(List.of("/usr/bin/tar", "--null", "-T", "/ws/list", "-cf", "/ws/d.tar"), "/ws"));
        assertThat(bytesOf(w.ws.resolve("d.tar"))).doesNotContain(secret);
    }

    @Test
    void urls_and_remotes_cannot_reach_a_repository_outside() {
        String url = "file://" + w.outside;
        assertContained(attack(List.of(GIT, "clone", url, "/ws/clone"), "/ws"));
        assertContained(attack(List.of(GIT, "clone", "/ws/rel", "/ws/clone2"), "/ws"));
        assertContained(attack(List.of(GIT, "ls-remote", url), "/ws"));
        assertContained(attack(List.of(GIT, "archive", "--remote=" + url, "HEAD"), "/ws"));
        assertThat(w.ws.resolve("clone/key.txt")).doesNotExist();
        assertThat(w.ws.resolve("clone2/key.txt")).doesNotExist();
    }

    @Test
    void git_never_finds_the_repository_a_mount_lies_in() throws IOException {
        Path outer = Files.createDirectories(tmp.resolve("outer"));
        Path inner = Files.createDirectories(outer.resolve("inner"));
        Files.writeString(outer.resolve("top.txt"), secret);
        Files.writeString(inner.resolve("file.txt"), "inner");
        git(outer, "init", "-q");
        git(outer, "add", "top.txt", "inner/file.txt");
        git(outer, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "outer");
        SecurityContext nested = SecurityContext.builder().name("worker_1")
                .path(PathEntry.of(inner.toString(), "ws", Permission.READ, Permission.WRITE, Permission.DELETE,
                        Permission.EXECUTE))
                .build();
        view = SandboxView.of(nested.paths(), nested.permissions());
        Map<String, String> outerBefore = snapshot(outer);

        for (List<String> argv : List.of(
                List.of(GIT, "status"),
                List.of(GIT, "show", "HEAD:../top.txt"),
                List.of(GIT, "grep", "-e", "TOPSECRET", "--", ":/"),
                List.of(GIT, "rm", "-q", ":/top.txt"),
                List.of(GIT, "checkout", "HEAD", "--", ":/top.txt"))) {
            CommandResult result = attack(argv, "/ws");
            assertThat(result.succeeded()).as(argv.toString()).isFalse();
            assertThat(result.stdout() + result.stderr()).doesNotContain(secret).doesNotContain(tmp.toString());
        }
        assertThat(snapshot(outer)).isEqualTo(outerBefore);
    }

    @Test
    void a_repository_configuration_that_runs_programs_runs_them_inside_the_sandbox() throws IOException {
        git(w.ws, "init", "-q", "--separate-git-dir=" + w.ws.resolve("gd"));
        Files.writeString(w.ws.resolve(".git"), "gitdir: gd\n"); // relative, so that git finds it inside too
        Files.writeString(w.ws.resolve("gd/config"), "[alias]\n\tx = !cat " + w.outside.resolve("key.txt")
                + " /ws/rel/key.txt; touch " + w.outside.resolve("pwned") + " /docs/pwned; ls /\n", StandardCharsets.UTF_8,
                java.nio.file.StandardOpenOption.APPEND);

        CommandResult result = attack(List.of(GIT, "x"), "/ws");

        assertThat(result.stdout()).doesNotContain("outside").doesNotContain(tmp.getFileName().toString());
        assertContained(result);
    }

    @Test
    void arbitrary_code_in_the_sandbox_sees_only_the_mounts_and_system_directories() {
        CommandResult root = attack(List.of("/usr/bin/ls", "/"), "/ws");
        CommandResult etc = attack(List.of("/usr/bin/ls", "/etc"), "/ws");
        CommandResult tmpDir = attack(List.of("/usr/bin/ls", "-A", "/tmp"), "/ws");
        CommandResult environment = attack(List.of("/bin/sh", "-c", "cat /proc/1/environ; echo; env"), "/ws");
        CommandResult writes = attack(List.of("/bin/sh", "-c", "touch /x /usr/x /etc/x /proc/x; "
                + "cat " + w.outside.resolve("key.txt") + "; touch " + w.outside.resolve("pwned") + "; echo end"), "/ws");

        List<String> expectedRoot = new ArrayList<>(List.of("dev", "docs", "etc", "proc", "tmp", "usr", "ws"));
        for (String system : List.of("bin", "sbin", "lib", "lib32", "lib64", "libx32")) {
            if (Files.exists(Path.of("/" + system), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                expectedRoot.add(system); // as on the host
            }
        }
        assertThat(root.stdout().lines()).containsExactlyInAnyOrderElementsOf(expectedRoot);
        assertThat(etc.stdout().lines()).isSubsetOf("alternatives", "group", "ld.so.cache", "localtime",
                "nsswitch.conf", "passwd").contains("ld.so.cache");
        assertThat(tmpDir.stdout()).isEmpty();
        assertThat(environment.stdout()).doesNotContain("MERO_TEST_SECRET").doesNotContain("hunter2")
                .contains("PWD=/ws");
        assertThat(writes.stdout()).isEqualTo("end\n");
        assertThat(writes.stderr()).contains("Read-only file system");
        for (CommandResult result : List.of(root, etc, tmpDir, environment, writes)) {
            assertContained(result);
            assertThat(result.stdout()).doesNotContain(tmp.toString());
        }
    }

    @Test
    void a_read_only_mount_cannot_be_written_by_any_program() {
        for (List<String> argv : List.of(
                List.of("/usr/bin/touch", "/docs/new.txt"),
                List.of(GIT, "init", "-q", "/docs/newrepo"),
                List.of(GIT, "init", "-q", "../docs/newrepo2"),
                List.of("/usr/bin/cp", "/ws/notes.txt", "/docs/"),
                List.of("/usr/bin/rm", "-f", "/docs/guide.txt"),
                List.of("/usr/bin/mv", "/docs/guide.txt", "/ws/stolen.txt"),
                List.of("/usr/bin/sed", "-i", "s/guide/pwned/", "/docs/guide.txt"))) {
            CommandResult result = attack(argv, "/ws");
            assertThat(result.succeeded()).as(argv.toString()).isFalse();
            assertContained(result);
        }
        assertThat(w.docs.resolve("guide.txt")).hasContent("guide"); // mv could copy it, never remove it
    }

    @Test
    void a_nested_entry_denied_read_is_an_empty_read_only_directory() throws IOException {
        Path hidden = Files.createDirectories(w.ws.resolve("private"));
        Files.writeString(hidden.resolve("key.txt"), secret);
        SecurityContext context = w.context()
                .path(PathEntry.builder().path(hidden).slug("private").allow(Permission.WRITE).deny(Permission.READ)
                        .build())
                .build();
        view = SandboxView.of(context.paths(), context.permissions());

        CommandResult listing = attack(List.of("/usr/bin/ls", "-A", "/ws/private"), "/ws");
        CommandResult reading = attack(List.of("/usr/bin/cat", "/ws/private/key.txt", "/private/key.txt"), "/ws");
        CommandResult writing = attack(List.of("/usr/bin/touch", "/ws/private/new"), "/ws");

        assertThat(listing.succeeded()).isTrue();
        assertThat(listing.stdout()).isEmpty();
        assertThat(reading.succeeded()).isFalse();
        assertThat(reading.stdout()).doesNotContain(secret);
        assertThat(writing.succeeded()).isFalse();
        assertThat(Files.readString(hidden.resolve("key.txt"))).isEqualTo(secret);
        assertThat(hidden.resolve("new")).doesNotExist();
    }

    @Test
    void a_directory_swapped_for_a_link_while_programs_run_never_leads_out() throws Exception {
        Path race = w.ws.resolve("race");
        Path real = Files.createDirectories(w.ws.resolve("real"));
        Files.writeString(real.resolve("key.txt"), "harmless");
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        Thread swapper = new Thread(() -> {
            List<Path> targets = List.of(real, w.outside, Path.of("../outside"));
            for (int i = 0; !stop.get(); i++) {
                try {
                    Files.deleteIfExists(race);
                    Files.createSymbolicLink(race, targets.get(i % targets.size()));
                } catch (IOException e) {
                    // the other side of the race; keep swapping
                }
            }
        }, "swapper");
        swapper.start();
        List<CommandResult> results = new ArrayList<>();
        try {
            for (int i = 0; i < 20; i++) {
                results.add(attack(List.of("/usr/bin/cat", "/ws/race/key.txt", "race/key.txt"), "/ws"));
                results.add(attack(List.of("/usr/bin/cp", "-rL", "/ws/race", "/ws/copy" + i), "/ws"));
            }
        } finally {
            stop.set(true);
            swapper.join();
        }

        for (CommandResult result : results) {
            assertContained(result);
        }
        try (Stream<Path> copies = Files.walk(w.ws)) {
            for (Path file : (Iterable<Path>) copies::iterator) {
                if (Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    assertThat(Files.readString(file)).doesNotContain(secret);
                }
            }
        }
    }

    @Test
    void a_mounted_directory_replaced_by_a_link_is_never_mounted() throws IOException {
        Path shared = Files.createDirectories(w.ws.resolve("shared"));
        SecurityContext context = w.context().path(PathEntry.of(shared.toString(), "shared", Permission.READ)).build();
        view = SandboxView.of(context.paths(), context.permissions());
        Files.move(shared, w.ws.resolve("moved"));
        Files.createSymbolicLink(shared, w.outside);

        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> attack(List.of("/usr/bin/cat", "/shared/key.txt"), "/ws"))
                .isInstanceOf(dev.mero.core.CommandDeniedException.class)
                .hasMessageContaining("'/shared' is missing or was replaced")
                .hasMessageNotContaining(w.root.toString());
    }

    @Test
    void without_network_only_loopback_exists() {
        CommandResult result = attack(List.of("/usr/bin/cat", "/proc/net/dev"), "/ws");

        assertThat(result.succeeded()).isTrue();
        List<String> interfaces = new ArrayList<>();
        result.stdout().lines().skip(2).forEach(line -> interfaces.add(line.strip().split(":")[0]));
        assertThat(interfaces).containsExactly("lo");
    }

    @Test
    void with_network_allowed_the_hosts_interfaces_are_shared() throws IOException {
        long hostInterfaces = Files.readAllLines(Path.of("/proc/net/dev")).size() - 2;

        CommandResult result = runner.runInSandbox(CommandSandbox.builder().network(true).build(), view, "/ws",
                List.of("/usr/bin/cat", "/proc/net/dev"), Duration.ofSeconds(60));

        assertThat(result.succeeded()).isTrue();
        assertThat(result.stdout().lines().count() - 2).isEqualTo(hostInterfaces);
    }

    private CommandResult attack(List<String> argv, String workingDirectory) {
        return runner.runInSandbox(CommandSandbox.required(), view, workingDirectory, argv, Duration.ofSeconds(60));
    }

    /** Nothing outside the writable mount changed, and the output holds neither the secret nor a host path. */
    private void assertContained(CommandResult result) {
        String text = result.stdout() + result.stderr();
        assertThat(text).as("output").doesNotContain(secret);
        assertThat(snapshot(w.outside)).as("outside").isEqualTo(outsideBefore);
        assertThat(snapshot(w.docs)).as("docs").isEqualTo(docsBefore);
        assertThat(w.outside.resolve("pwned")).doesNotExist();
    }

    private static void git(Path directory, String... arguments) {
        List<String> command = new ArrayList<>(List.of(GIT));
        command.addAll(List.of(arguments));
        try {
            Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                    .start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor()).as(output).isZero();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Every file and directory under a root with its content: equal before and after means untouched. */
    private static Map<String, String> snapshot(Path root) {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path path : (Iterable<Path>) walk::iterator) {
                String key = root.relativize(path).toString();
                if (Files.isSymbolicLink(path)) {
                    files.put(key, "-> " + Files.readSymbolicLink(path));
                } else if (Files.isRegularFile(path)) {
                    files.put(key, new String(Files.readAllBytes(path), StandardCharsets.ISO_8859_1));
                } else {
                    files.put(key, "dir");
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return files;
    }

    private static String bytesOf(Path file) {
        try {
            return Files.exists(file) ? new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1) : "";
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
