package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every file tool against protected files holding a secret: a refusal starts with {@code Denied:} and names the
 * pattern, listings show the names marked protected, searches, trees, copies and syncs never read or copy the
 * content (and say how many they skipped), and no protected file is changed, moved or deleted. The secret never
 * appears in any result.
 */
class ProtectedPathsToolsTest {

    @TempDir
    Path temp;

    private Path ws;
    private Path project;
    private String secret;
    private MeroOperations ops;
    private final List<String> results = new ArrayList<>();

    @BeforeEach
    void setUp() throws IOException {
        ws = Files.createDirectories(temp.toRealPath().resolve("ws"));
        project = ws.resolve("project");
        secret = "SECRET-" + UUID.randomUUID();
        write(project.resolve(".env"), "API_TOKEN=" + secret + "\n");
        write(project.resolve("keys/server.pem"), "-----BEGIN PRIVATE KEY-----\n" + secret + "\n");
        write(project.resolve(".ssh/id_ed25519"), secret + "\n");
        write(project.resolve(".aws/credentials"), "aws_secret_access_key = " + secret + "\n");
        write(project.resolve(".env.example"), "API_TOKEN=\n");
        write(project.resolve("src/app.txt"), "hello app\n");
        Files.createSymbolicLink(project.resolve("link.txt"), Path.of(".env"));
        Files.createSymbolicLink(project.resolve("sshlink"), Path.of(".ssh"));
        SecurityContext context = SecurityContext.builder().name("worker_1")
                .path(PathEntry.of(ws.toString(), "ws", Permission.READ, Permission.WRITE, Permission.DELETE))
                .build();
        ops = MeroOperations.forContext(context);
    }

    private static void write(Path file, String content) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
    }

    /** Calls a tool, records its text, and checks that the text never holds the secret. */
    private String call(String tool, String json) {
        String text = OpsWorkspace.modelText(ops, tool, json);
        results.add(text);
        assertThat(text).as(tool + " " + json).doesNotContain(secret);
        return text;
    }

    private void assertDenied(String tool, String json, String pattern) {
        assertThat(call(tool, json)).as(tool + " " + json).startsWith("Denied: ")
                .contains("protected by the pattern '" + pattern + "'");
    }

    @Test
    void everyToolThatNamesAProtectedPathIsDeniedAndChangesNothing() {
        Map<String, String> before = protectedFiles();
        assertDenied("read_file", "{\"path\":\"/ws/project/.env\"}", ".env");
        assertDenied("read_file", "{\"path\":\"/ws/project/link.txt\"}", ".env");
        assertDenied("read_file", "{\"path\":\"/ws/project/sshlink/id_ed25519\"}", ".ssh");
        assertDenied("read_file", "{\"path\":\"project/keys/server.pem\",\"offset\":1,\"limit\":1}", "*.pem");
        assertDenied("file_info", "{\"path\":\"/ws/project/.aws/credentials\"}", "**/.aws/credentials");
        assertDenied("write_file", "{\"path\":\"/ws/project/.env\",\"content\":\"x\"}", ".env");
        assertDenied("write_file", "{\"path\":\"/ws/project/link.txt\",\"content\":\"x\"}", ".env");
        assertDenied("append_file", "{\"path\":\"/ws/project/.env\",\"content\":\"x\"}", ".env");
        assertDenied("edit_file", "{\"path\":\"/ws/project/.env\",\"old_text\":\"API_TOKEN=SECRET\","
                + "\"new_text\":\"x\",\"dry_run\":true}", ".env");
        assertDenied("edit_file", "{\"path\":\"/ws/project/.env\",\"old_text\":\"API\",\"new_text\":\"x\"}", ".env");
        assertDenied("copy_file", "{\"source\":\"/ws/project/.env\",\"destination\":\"/ws/copy.txt\"}", ".env");
        assertDenied("copy_file", "{\"source\":\"/ws/project/link.txt\",\"destination\":\"/ws/copy.txt\"}", ".env");
        assertDenied("copy_file", "{\"source\":\"/ws/project/link.txt\",\"destination\":\"/ws/project/copy\"}",
                ".env");
        assertDenied("move_file", "{\"source\":\"/ws/project/link.txt\",\"destination\":\"/ws/project/m\"}", ".env");
        assertDenied("delete_file", "{\"path\":\"/ws/project/link.txt\"}", ".env");
        assertDenied("copy_file", "{\"source\":\"/ws/project/src/app.txt\",\"destination\":\"/ws/project/.env\"}",
                ".env");
        assertDenied("move_file", "{\"source\":\"/ws/project/.env\",\"destination\":\"/ws/moved.txt\"}", ".env");
        assertDenied("move_file", "{\"source\":\"/ws/project/src/app.txt\",\"destination\":\"/ws/new.key\"}",
                "*.key");
        assertDenied("delete_file", "{\"path\":\"/ws/project/.env\"}", ".env");
        assertDenied("delete_directory", "{\"path\":\"/ws/project/.ssh\",\"recursive\":true}", ".ssh");
        assertDenied("create_directory", "{\"path\":\"/ws/project/.ssh/more\"}", ".ssh");
        assertDenied("search_text", "{\"path\":\"/ws/project/.env\",\"pattern\":\"API\"}", ".env");
        assertDenied("list_directory", "{\"path\":\"/ws/project/.ssh\"}", ".ssh");
        assertDenied("directory_tree", "{\"path\":\"/ws/project/sshlink\"}", ".ssh");
        assertDenied("find_files", "{\"path\":\"/ws/project/.ssh\",\"pattern\":\"*\"}", ".ssh");
        assertDenied("sync_directory", "{\"source\":\"/ws/project/.ssh\",\"destination\":\"/ws/keys\"}", ".ssh");
        assertThat(call("delete_directory", "{\"path\":\"/ws/project\",\"recursive\":true}"))
                .startsWith("Denied: ").contains("protected by the pattern").contains("nothing was deleted");
        assertThat(protectedFiles()).isEqualTo(before);
        assertThat(ws.resolve("copy.txt")).doesNotExist();
        assertThat(project.resolve("link.txt")).isSymbolicLink();
        assertThat(project.resolve("copy")).doesNotExist();
        assertThat(project.resolve("m")).doesNotExist();
        assertThat(ws.resolve("moved.txt")).doesNotExist();
        assertThat(ws.resolve("new.key")).doesNotExist();
        assertThat(project.resolve("src/app.txt")).hasContent("hello app\n");
    }

    @Test
    void aListingMarksEachEntryByItsWholePathInsideEveryMountHoldingIt() throws IOException {
        write(project.resolve("nested/.aws/credentials"), secret + "\n");
        write(project.resolve("nested/.aws/config"), "region = x\n");
        ops = MeroOperations.forContext(SecurityContext.builder().name("worker_1")
                .path(PathEntry.of(ws.toString(), "ws", Permission.READ))
                .path(PathEntry.of(project.resolve("nested").toString(), "nested", Permission.READ))
                .build());
        // a glob with directories in it: the entry's name alone would not match it
        assertThat(call("list_directory", "{\"path\":\"/ws/project/.aws\"}")).endsWith("\ncredentials [protected]");
        assertThat(call("list_directory", "{\"path\":\"/ws/project/nested/.aws\"}"))
                .contains("\ncredentials [protected]").contains("\nconfig\n");
        // the same directory through the mount nested inside: still protected there
        assertThat(call("list_directory", "{\"path\":\"/nested/.aws\"}"))
                .contains("\ncredentials [protected]").contains("\nconfig\n");
        // a mount root met as an entry is listed as a directory, not protected
        assertThat(call("list_directory", "{\"path\":\"/ws/project\"}")).contains("\nnested/\n");
        assertThat(call("list_directory", "{\"path\":\"/ws/project/keys\"}")).endsWith("\nserver.pem [protected]");
    }

    @Test
    void listingsShowTheNamesMarkedProtectedAndNothingElse() {
        assertThat(call("list_directory", "{\"path\":\"/ws/project\"}")).contains("\n.env [protected]\n",
                "\n.env.example\n", "\n.ssh/ [protected]\n", "\n.aws/\n", "\nkeys/\n", "\nlink.txt\n");
        assertThat(call("directory_tree", "{\"path\":\"/ws/project\",\"max_depth\":3}"))
                .contains("\n.env [protected]", "\n.env.example\n", "\n.ssh/ [protected]", "\n  server.pem [protected]",
                        "\n  credentials [protected]", "\nlink.txt@")
                .doesNotContain("id_ed25519");
        assertThat(call("find_files", "{\"path\":\"/ws/project\",\"pattern\":\"**/*.pem\"}"))
                .contains("\n/ws/project/keys/server.pem [protected]");
        assertThat(call("find_files", "{\"path\":\"/ws\",\"pattern\":\"*\"}"))
                .contains("\n/ws/project/.env [protected]\n", "\n/ws/project/.env.example\n",
                        "\n/ws/project/.ssh/ [protected]\n", "\n/ws/project/src/app.txt\n")
                .doesNotContain("id_ed25519");
    }

    @Test
    void searchesNeverReadProtectedFilesAndSayHowManyTheySkipped() {
        assertThat(call("search_text", "{\"path\":\"/ws\",\"pattern\":\"SECRET\"}"))
                .startsWith("No line in '/ws' matches 'SECRET'")
                .contains("[4 protected files or directories were not searched.]");
        assertThat(call("search_text", "{\"path\":\"/ws/project\",\"pattern\":\".\"}"))
                .contains("/ws/project/src/app.txt:1: hello app", "/ws/project/.env.example:1: API_TOKEN=")
                .doesNotContain("aws_secret_access_key", "PRIVATE KEY");
        assertThat(call("search_text", "{\"path\":\"/ws/project\",\"pattern\":\"TOKEN\",\"glob\":\".env*\"}"))
                .contains("1 matching line").contains("/ws/project/.env.example:1:");
    }

    @Test
    void aSyncSkipsProtectedFilesSaysHowManyAndNeverDeletesThem() throws IOException {
        String dry = call("sync_directory", "{\"source\":\"/ws/project\",\"destination\":\"/ws/copy\","
                + "\"dry_run\":true}");
        assertThat(dry).contains("[Would skip 4 protected files or directories in the source: protected paths are "
                + "never read or copied.]").doesNotContain("copy: .env\n");
        String done = call("sync_directory", "{\"source\":\"/ws/project\",\"destination\":\"/ws/copy\"}");
        assertThat(done).contains("[Skipped 4 protected files or directories in the source");
        assertThat(ws.resolve("copy/src/app.txt")).hasContent("hello app\n");
        assertThat(ws.resolve("copy/.env.example")).hasContent("API_TOKEN=\n");
        assertThat(ws.resolve("copy/.env")).doesNotExist();
        assertThat(ws.resolve("copy/.ssh")).doesNotExist();
        assertThat(ws.resolve("copy/keys/server.pem")).doesNotExist();
        assertThat(filesHolding(ws.resolve("copy"))).isEmpty();

        // an extraneous directory holding a protected file in the destination is left alone
        String second = "SECRET2-" + UUID.randomUUID();
        write(ws.resolve("copy/old/.env"), second);
        write(ws.resolve("copy/old/stale.txt"), "stale");
        String pruned = call("sync_directory", "{\"source\":\"/ws/project\",\"destination\":\"/ws/copy\","
                + "\"delete_extraneous\":true}");
        assertThat(pruned).doesNotContain(second).contains("[Left 1 protected file or directory in the destination "
                + "alone.]").contains("delete: old/stale.txt");
        assertThat(ws.resolve("copy/old/.env")).hasContent(second);
        assertThat(ws.resolve("copy/old/stale.txt")).doesNotExist();
        assertThat(filesHolding(ws.resolve("copy"))).isEmpty();
    }

    @Test
    void theSecretAppearsInNoResultOfAFullTourOfTheTools() {
        for (String[] call : new String[][] {
            {"list_roots", "{}"}, {"list_directory", "{\"path\":\"/ws\"}"},
            {"directory_tree", "{\"path\":\"/ws\",\"max_depth\":5}"},
            {"find_files", "{\"path\":\"/ws\",\"pattern\":\"**\"}"},
            {"search_text", "{\"path\":\"/ws\",\"pattern\":\"[A-Z]\"}"},
            {"read_file", "{\"path\":\"/ws/project/sshlink\"}"},
            {"file_info", "{\"path\":\"/ws/project/link.txt\"}"},
            {"sync_directory", "{\"source\":\"/ws/project\",\"destination\":\"/ws/tour\"}"},
            {"copy_file", "{\"source\":\"/ws/project/keys/server.pem\",\"destination\":\"/ws/k.txt\"}"}}) {
            call(call[0], call[1]);
        }
        assertThat(results).hasSize(9).noneMatch(text -> text.contains(secret));
        assertThat(filesHolding(ws).keySet()).containsExactlyInAnyOrder(".env", "server.pem", "id_ed25519",
                "credentials");
    }

    /** The protected files with their content. */
    private Map<String, String> protectedFiles() {
        Map<String, String> files = new TreeMap<>();
        for (String name : List.of(".env", "keys/server.pem", ".ssh/id_ed25519", ".aws/credentials")) {
            try {
                files.put(name, Files.readString(project.resolve(name)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return files;
    }

    /** Regular files below a directory that hold the secret, by name. */
    private Map<String, Path> filesHolding(Path directory) {
        Map<String, Path> holding = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.toList()) {
                if (Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS) && Files.readString(path).contains(secret)) {
                    holding.put(path.getFileName().toString(), path);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return holding;
    }
}
