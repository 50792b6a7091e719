package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.core.Fifos;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Walks that skip the {@code stat} of entries a directory's link count says are not directories
 * ({@link SubdirectoryCount}) show exactly what walks that read every entry show, on ext4 ({@code /tmp}) and tmpfs
 * ({@code /dev/shm}); links are listed, never followed; a directory made where a counted file was is missed, never
 * entered unread. Runs on the JDK's listing (the Java 25 layer takes types from {@code d_type} instead).
 */
class SubdirectoryCountTest {

    @TempDir
    Path temp;
    private ConfinedCalls selected;
    private Consumer<String> beforeOpen;

    @BeforeEach
    void jdkListing() {
        selected = ConfinedCalls.Selected.calls;
        ConfinedCalls.Selected.calls = ConfinedCalls.NONE;
        beforeOpen = SecureDirectory.beforeOpen;
    }

    @AfterEach
    void restore() {
        ConfinedCalls.Selected.calls = selected;
        SubdirectoryCount.disabled = false;
        SecureDirectory.beforeOpen = beforeOpen;
    }

    /** A tree with subdirectories, files, links to a directory and a file outside the mount, a FIFO and a secret. */
    private OpsWorkspace tree(Path base) throws IOException, InterruptedException {
        OpsWorkspace w = new OpsWorkspace(base);
        Path ws = w.ws;
        Files.createDirectories(ws.resolve("a/b/c"));
        Files.createDirectories(ws.resolve("a/sub.md"));
        Files.writeString(ws.resolve("a/sub.md/x.md"), "x");
        Files.writeString(ws.resolve("a/b/deep.md"), "d");
        Files.writeString(ws.resolve("a/c.md"), "c");
        Files.writeString(ws.resolve("a/c.txt"), "c");
        Files.writeString(ws.resolve("z.md"), "z");
        Files.writeString(ws.resolve(".env"), "SECRET=1");
        Files.writeString(w.outside.resolve("secret.md"), "s");
        Files.createSymbolicLink(ws.resolve("a/link-dir.md"), w.outside);
        Files.createSymbolicLink(ws.resolve("a/link-file.md"), w.outside.resolve("secret.md"));
        Fifos.mkfifo(ws.resolve("a/pipe.md"));
        for (int i = 0; i < 20; i++) {
            Files.writeString(ws.resolve("a/b/file" + i + (i % 5 == 0 ? ".md" : ".txt")), "f");
        }
        return w;
    }

    private static List<String> answers(OpsWorkspace w) {
        MeroOperations ops = w.ops();
        List<String> out = new ArrayList<>();
        for (String pattern : List.of("**/*.md", "**", "*", "a/*", "**/.env")) {
            out.add(OpsWorkspace.modelText(ops, "find_files", "{\"path\":\"/ws\",\"pattern\":\"" + pattern + "\"}"));
        }
        out.add(OpsWorkspace.modelText(ops, "directory_tree", "{\"path\":\"/ws\",\"max_depth\":5}"));
        out.add(OpsWorkspace.modelText(ops, "search_text", "{\"path\":\"/ws\",\"pattern\":\"d\"}"));
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "/dev/shm"})
    void showsWhatReadingEveryEntryShowsAndFollowsNoLink(String base) throws IOException, InterruptedException {
        Path root = base.isEmpty() ? temp : Files.createTempDirectory(Path.of(base), "mero-count");
        try {
            OpsWorkspace w = tree(root);
            assertThat(SubdirectoryCount.of(w.ws)).as("ext4 and tmpfs count subdirectories").isNotNull();
            List<String> counted = answers(w);
            SubdirectoryCount.disabled = true;
            assertThat(answers(w)).isEqualTo(counted);
            assertThat(counted.get(0)).contains("/ws/a/sub.md/\n", "/ws/a/sub.md/x.md", "/ws/a/link-dir.md@",
                    "/ws/a/link-file.md@", "/ws/a/b/deep.md", "/ws/a/pipe.md", "/ws/z.md")
                    .doesNotContain("secret", "/ws/.env");
            assertThat(counted.get(1)).contains("/ws/a/b/c/", "/ws/.env [protected]").doesNotContain("secret");
            assertThat(counted.get(5)).contains("link-dir.md@", "sub.md/").doesNotContain("secret");
        } finally {
            if (!base.isEmpty()) {
                try (java.util.stream.Stream<Path> all = Files.walk(root)) {
                    for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                        Files.delete(p);
                    }
                }
            }
        }
    }

    @Test
    void readsOnlyTheEntriesThatCouldBeDirectoriesOrAreShown() throws IOException, InterruptedException {
        OpsWorkspace w = tree(temp);
        assertThat(walk(w)).as("a/b holds c and 20 files: the files after c are not read")
                .contains("a/b/file7.txt").doesNotContain("a/b/c", "a/sub.md", "a/c.md");
        SubdirectoryCount.disabled = true;
        assertThat(walk(w)).as("counts off: every entry read").isEmpty();
    }

    @Test
    void onlyFileSystemsKnownToCountAndTheStartsDeviceAreTrusted() throws IOException {
        SubdirectoryCount counts = SubdirectoryCount.of(temp);
        assertThat(counts).isNotNull();
        Files.createDirectories(temp.resolve("one/sub"));
        Files.createDirectories(temp.resolve("two/a"));
        Files.createDirectories(temp.resolve("two/b"));
        assertThat(counts.subdirectories(temp.resolve("one/sub"))).isZero();
        assertThat(counts.subdirectories(temp.resolve("one"))).isEqualTo(1);
        assertThat(counts.subdirectories(temp.resolve("two"))).isEqualTo(2);
        assertThat(counts.subdirectories(temp.resolve("missing"))).isEqualTo(SubdirectoryCount.UNKNOWN);
        // another device (procfs), and a file system that is not known to count
        assertThat(counts.subdirectories(Path.of("/proc"))).isEqualTo(SubdirectoryCount.UNKNOWN);
        assertThat(SubdirectoryCount.of(Path.of("/proc"))).isNull();
        assertThat(SubdirectoryCount.of(temp.resolve("missing"))).isNull();
        SubdirectoryCount.disabled = true;
        assertThat(SubdirectoryCount.of(temp)).isNull();
    }

    @Test
    void anEntryHandedOverUnreadAnswersAsItsOwnAttributesDo() throws IOException, InterruptedException {
        OpsWorkspace w = new OpsWorkspace(temp);
        Files.writeString(w.ws.resolve("file"), "12345");
        Files.createSymbolicLink(w.ws.resolve("link"), w.outside);
        Fifos.mkfifo(w.ws.resolve("pipe"));
        Files.createDirectories(w.ws.resolve("dir"));
        try (SecureDirectory ws = SecureDirectory.open(w.ws)) {
            for (String name : List.of("file", "link", "pipe", "dir")) {
                BasicFileAttributes read = ws.attributes(name).orElseThrow();
                NotADirectory unread = new NotADirectory(ws, name);
                assertThat(unread.isDirectory()).as(name).isFalse();
                assertThat(List.of(unread.isRegularFile(), unread.isSymbolicLink(), unread.isOther()))
                        .as(name).containsExactly(read.isRegularFile(), read.isSymbolicLink(),
                                read.isOther() || read.isDirectory());
                assertThat(List.of(unread.size(), unread.fileKey(), unread.lastModifiedTime(),
                        unread.lastAccessTime(), unread.creationTime())).as(name).containsExactly(read.size(),
                        read.fileKey(), read.lastModifiedTime(), read.lastAccessTime(), read.creationTime());
            }
            NotADirectory gone = new NotADirectory(ws, "gone");
            assertThat(List.of(gone.isRegularFile(), gone.isSymbolicLink(), gone.isOther(), gone.isDirectory()))
                    .containsExactly(false, false, true, false);
        }
    }

    /** The entries a types-only walk handed over unread. */
    private static List<String> walk(OpsWorkspace w) throws IOException {
        SecurityContext context = w.contextBuilder().build();
        List<String> unread = new ArrayList<>();
        TreeWalk.walk(context, context.checkPathAccess("/ws", Permission.READ), 64, 1000, Long.MAX_VALUE,
                Permission.READ, new TreeWalk.Visitor() {
                    @Override
                    public boolean visit(String relative, int depth, BasicFileAttributes attributes,
                                         SecureDirectory parent, String name) {
                        if (attributes instanceof NotADirectory) {
                            unread.add(relative);
                        }
                        return true;
                    }

                    @Override
                    public boolean typesSuffice() {
                        return true;
                    }
                });
        return unread;
    }

    @Test
    void aDirectoryOrLinkMadeWhereACountedFileWasIsListedNeverEntered() throws IOException {
        OpsWorkspace w = new OpsWorkspace(temp);
        Files.createDirectories(w.ws.resolve("a"));
        Files.writeString(w.ws.resolve("f.md"), "f");
        Files.writeString(w.ws.resolve("g.md"), "g");
        Files.writeString(w.outside.resolve("secret.md"), "s");
        SecureDirectory.beforeOpen = name -> {
            if (name.equals("a")) {
                try {
                    // after /ws was listed and counted (one subdirectory), before its files are reached
                    Files.delete(w.ws.resolve("f.md"));
                    Files.createDirectories(w.ws.resolve("f.md"));
                    Files.writeString(w.ws.resolve("f.md/inner.md"), "i");
                    Files.delete(w.ws.resolve("g.md"));
                    Files.createSymbolicLink(w.ws.resolve("g.md"), w.outside);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        };
        String found = OpsWorkspace.modelText(w.ops(), "find_files", "{\"path\":\"/ws\",\"pattern\":\"**/*.md\"}");
        assertThat(found).contains("/ws/f.md", "/ws/g.md@").doesNotContain("inner.md", "secret");
    }
}
