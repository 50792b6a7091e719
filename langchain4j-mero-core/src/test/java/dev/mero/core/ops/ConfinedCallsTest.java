package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.mero.core.Fifos;
import dev.mero.core.PathEntry;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kernel-confined layer ({@link ConfinedCalls}) changes no answer: every read, listing, tree and search over a
 * hostile tree (links out of the mount and inside it, a FIFO, a directory where a file is wanted, protected files,
 * a large file, a missing one) says exactly what the JDK's path says, and a FIFO never blocks. On the Java 25 JVM
 * (the core's {@code java25-paths} failsafe run sets {@code mero.expectConfinedCalls}) the {@code openat2} layer
 * must be the one selected, and a kernel without {@code openat2} ({@code ENOSYS}) or a seccomp policy that refuses
 * it ({@code EPERM}), forced here, leaves the JDK's path. On Java 17 the JNI layer opens files (the core's surefire
 * run expects it where the build made the library) and a test double stands in for the walks, so the walk's use of
 * listed types is tested there too.
 */
class ConfinedCallsTest {

    private static final Duration BOUND = Duration.ofSeconds(30);

    @TempDir
    Path temp;

    private OpsWorkspace w;
    private MeroOperations ops;
    private ConfinedCalls selected;

    @BeforeEach
    void setUp() throws Exception {
        selected = ConfinedCalls.Selected.calls;
        w = new OpsWorkspace(temp);
        Files.createDirectories(w.ws.resolve("src/deep/er"));
        Files.writeString(w.ws.resolve("src/a.md"), "# a\nline two\n");
        Files.writeString(w.ws.resolve("src/deep/b.md"), "needle b\n");
        Files.writeString(w.ws.resolve("src/deep/er/c.txt"), "needle c\n");
        Files.write(w.ws.resolve("src/binary.bin"), new byte[] {1, 0, 2});
        Files.writeString(w.ws.resolve("src/empty.txt"), "");
        StringBuilder big = new StringBuilder();
        for (int i = 0; i < 3_000; i++) {
            big.append("line ").append(i).append(" of a file larger than one native buffer\n");
        }
        Files.writeString(w.ws.resolve("src/big.txt"), big);
        Files.writeString(w.ws.resolve("src/.env"), "SECRET=protected\n");
        Files.createSymbolicLink(w.ws.resolve("src/out.txt"), w.outside.resolve("secret.txt"));
        Files.createSymbolicLink(w.ws.resolve("src/outdir"), w.outside);
        Files.createSymbolicLink(w.ws.resolve("src/inner.md"), Path.of("a.md"));
        Files.createSymbolicLink(w.ws.resolve("src/dotdot"), Path.of("../../outside"));
        Fifos.mkfifo(w.ws.resolve("src/pipe"));
        ops = w.ops();
    }

    @AfterEach
    void restore() {
        ConfinedCalls.Selected.calls = selected;
    }

    @Test
    void theExpectedLayerIsSelected() {
        String expected = System.getProperty("mero.expectConfinedCalls");
        if (expected != null) {
            assertThat(ConfinedCalls.current().name()).isEqualTo(expected);
        } else if (Runtime.version().feature() < 22) {
            // no JNI library in this build (or the layer turned off): the JDK's path
            assertThat(ConfinedCalls.current().name()).isIn("none", "openat2-jni");
        }
    }

    @Test
    void turnedOffByTheSystemPropertyTheJdkPathIsTaken() {
        String before = System.getProperty(ConfinedCalls.PROPERTY);
        System.setProperty(ConfinedCalls.PROPERTY, "off");
        try {
            assertThat(ConfinedCalls.Selected.select()).isSameAs(ConfinedCalls.NONE);
        } finally {
            restoreProperty(ConfinedCalls.PROPERTY, before);
        }
    }

    @Test
    void aKernelWithoutOpenat2OrASeccompRefusalFallsBackToTheJdkPath() {
        for (String errno : List.of("ENOSYS", "EPERM")) {
            String before = System.getProperty("mero.confinedCalls.failWith");
            System.setProperty("mero.confinedCalls.failWith", errno);
            try {
                ConfinedCalls fallback = ConfinedCalls.Selected.select();
                assertThat(fallback).as(errno).isSameAs(ConfinedCalls.NONE);
                ConfinedCalls.Selected.calls = fallback;
                assertThat(OpsWorkspace.modelText(ops, "read_file", "{\"path\":\"/ws/src/a.md\"}"))
                        .isEqualTo("# a\nline two\n");
            } finally {
                restoreProperty("mero.confinedCalls.failWith", before);
            }
        }
    }

    @Test
    void everyReadAnswersAsTheJdkPathDoesAndNoPipeBlocks() {
        for (String path : List.of("src/a.md", "src/deep/b.md", "src/deep/er/c.txt", "src/binary.bin",
                "src/empty.txt", "src/big.txt", "src/.env", "src/out.txt", "src/outdir/secret.txt", "src/inner.md",
                "src/dotdot/secret.txt", "src/pipe", "src/deep", "src/missing.txt", "src/pipe/x", "notes.txt")) {
            String json = "{\"path\":\"/ws/" + path + "\"}";
            String edit = "{\"path\":\"/ws/" + path + "\",\"old_text\":\"zzz-absent\",\"new_text\":\"y\"}";
            assertSameAnswers(path, () -> OpsWorkspace.modelText(ops, "read_file", json)
                    + OpsWorkspace.modelText(ops, "read_file", json.replace("}", ",\"offset\":3,\"limit\":2}"))
                    + OpsWorkspace.modelText(ops, "edit_file", edit));
        }
        assertThat(OpsWorkspace.modelText(ops, "read_file", "{\"path\":\"/ws/src/out.txt\"}"))
                .doesNotContain("top secret");
    }

    @Test
    void namesOfEveryKindReadAsTheJdkPathReadsThem() throws IOException {
        // ASCII and wider names go to the kernel by different routes (NativeScratch.setPath): the longest name,
        // two-byte and three-byte characters, a deep path, and names the file-name encoding cannot hold
        StringBuilder deep = new StringBuilder("src");
        for (int i = 0; deep.length() < 1_500; i++) {
            deep.append('/').append(String.valueOf((char) ('a' + i)).repeat(120));
        }
        Files.createDirectories(w.ws.resolve(deep.toString()));
        List<String> names = List.of("src/" + "n".repeat(251) + ".txt", "src/" + "\u00e9".repeat(125) + ".txt",
                "src/\u65e5\u672c\u8a9e.txt", "src/caf\u00e9/plain.txt", deep + "/end.txt", "src/x\u007e-_.+y.txt");
        for (String name : names) {
            Files.createDirectories(w.ws.resolve(name).getParent());
            Files.writeString(w.ws.resolve(name), "content of " + name + "\n");
        }
        for (String name : names) {
            String json = "{\"path\":\"/ws/" + name + "\"}";
            assertSameAnswers(name, () -> OpsWorkspace.modelText(ops, "read_file", json));
            assertThat(OpsWorkspace.modelText(ops, "read_file", json)).isEqualTo("content of " + name + "\n");
        }
        for (String unusable : List.of("src/lone\ud800.txt", "src/bad\ufffd.txt", "src/" + "m".repeat(256) + ".txt",
                "src/" + "\u00e9".repeat(128) + ".txt")) {
            String json = "{\"path\":\"/ws/" + unusable + "\"}";
            assertSameAnswers(unusable, () -> OpsWorkspace.modelText(ops, "read_file", json));
        }
    }

    @Test
    void aMountRenamedReplacedOrTurnedIntoALinkIsRefusedAsTheJdkPathRefusesIt() throws IOException {
        // the layer checks the mount through its kept descriptor's identity (read_file's decision leaves that
        // check to the open): every change answers as the JDK's lstat of the mount does, and a mount put back reads
        String json = "{\"path\":\"/ws/src/a.md\"}";
        String refused = "Denied: The mount '/ws' in context 'test' is no longer the directory";
        assertThat(OpsWorkspace.modelText(ops, "read_file", json)).isEqualTo("# a\nline two\n");
        Path old = w.ws.resolveSibling("ws-old");
        Files.move(w.ws, old);
        assertSameAnswers("renamed away", () -> OpsWorkspace.modelText(ops, "read_file", json));
        assertThat(OpsWorkspace.modelText(ops, "read_file", json)).startsWith(refused);
        Files.createSymbolicLink(w.ws, old);
        assertSameAnswers("a link to the old directory", () -> OpsWorkspace.modelText(ops, "read_file", json));
        assertThat(OpsWorkspace.modelText(ops, "read_file", json)).startsWith(refused);
        Files.delete(w.ws);
        Files.createDirectories(w.ws.resolve("src"));
        Files.writeString(w.ws.resolve("src/a.md"), "replaced\n");
        assertSameAnswers("replaced", () -> OpsWorkspace.modelText(ops, "read_file", json));
        assertThat(OpsWorkspace.modelText(ops, "read_file", json)).startsWith(refused).doesNotContain("replaced\n");
        Files.move(w.ws, w.ws.resolveSibling("ws-new"));
        Files.move(old, w.ws);
        assertSameAnswers("put back", () -> OpsWorkspace.modelText(ops, "read_file", json));
        assertThat(OpsWorkspace.modelText(ops, "read_file", json)).isEqualTo("# a\nline two\n");
    }

    @Test
    void concurrentReadsOnManyThreadsEachReadTheirOwnFile() throws Exception {
        // each thread has its own native buffers: a name or data written by one never shows in another's read
        int threads = 8;
        List<String> names = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String name = "src/" + (t % 2 == 0 ? "t" + t : "\u00fc" + "w".repeat(20 * t) + t) + ".txt";
            Files.writeString(w.ws.resolve(name), ("thread " + t + " line\n").repeat(50 + t * 100));
            names.add(name);
        }
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        try {
            List<java.util.concurrent.Future<Integer>> done = new ArrayList<>();
            java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
            for (String name : names) {
                String expected = Files.readString(w.ws.resolve(name));
                done.add(pool.submit(() -> {
                    start.await();
                    int reads = 0;
                    for (; reads < 200; reads++) {
                        assertThat(OpsWorkspace.modelText(ops, "read_file", "{\"path\":\"/ws/" + name + "\"}"))
                                .as(name).isEqualTo(expected);
                    }
                    return reads;
                }));
            }
            start.countDown();
            for (java.util.concurrent.Future<Integer> each : done) {
                assertThat(each.get(BOUND.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(200);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void everyWalkAnswersAsTheJdkPathDoes() {
        for (String[] call : List.of(
                new String[] {"find_files", "{\"path\":\"/ws\",\"pattern\":\"**\"}"},
                new String[] {"find_files", "{\"path\":\"/ws/src\",\"pattern\":\"**/*.md\"}"},
                new String[] {"find_files", "{\"path\":\"/ws/src/deep\",\"pattern\":\"*\"}"},
                new String[] {"find_files", "{\"path\":\"/ws/src/outdir\",\"pattern\":\"*\"}"},
                new String[] {"find_files", "{\"path\":\"/ws/src/pipe\",\"pattern\":\"*\"}"},
                new String[] {"directory_tree", "{\"path\":\"/ws\",\"max_depth\":5}"},
                new String[] {"list_directory", "{\"path\":\"/ws/src\"}"},
                new String[] {"search_text", "{\"path\":\"/ws\",\"pattern\":\"needle|SECRET|top\"}"})) {
            assertSameAnswers(call[1], () -> OpsWorkspace.modelText(ops, call[0], call[1]));
        }
    }

    @Test
    void aWalkCutByItsEntryBoundIsCutAtTheSameEntries() {
        MeroOperations few = w.ops(OperationLimits.builder().maxScanEntries(5));
        assertSameAnswers("bounded", () -> OpsWorkspace.modelText(few, "find_files",
                "{\"path\":\"/ws\",\"pattern\":\"**\"}"));
    }

    @Test
    void aWalkThatNeedsTypesOnlyTakesThemFromTheListing() throws IOException {
        CountingDouble counting = new CountingDouble();
        ConfinedCalls.Selected.calls = ConfinedCalls.NONE;
        String jdk = OpsWorkspace.modelText(ops, "find_files", "{\"path\":\"/ws\",\"pattern\":\"**\"}");
        String tree = OpsWorkspace.modelText(ops, "directory_tree", "{\"path\":\"/ws\",\"max_depth\":5}");
        ConfinedCalls.Selected.calls = counting;
        assertThat(OpsWorkspace.modelText(ops, "find_files", "{\"path\":\"/ws\",\"pattern\":\"**\"}"))
                .isEqualTo(jdk);
        assertThat(OpsWorkspace.modelText(ops, "directory_tree", "{\"path\":\"/ws\",\"max_depth\":5}"))
                .isEqualTo(tree);
        // ws, ws/src, src/deep, deep/er: twice; outdir and dotdot are links, never entered
        assertThat(counting.listings.get()).isEqualTo(8);
        // search_text takes the type-only listing too, reading each file's size when it opens it, and answers alike
        String search = "{\"path\":\"/ws\",\"pattern\":\"needle|line 2999 \"}";
        String searched = OpsWorkspace.modelText(ops, "search_text", search);
        assertThat(counting.listings.get()).isEqualTo(12);
        ConfinedCalls.Selected.calls = ConfinedCalls.NONE;
        assertThat(searched).isEqualTo(OpsWorkspace.modelText(ops, "search_text", search))
                .contains("/ws/src/deep/er/c.txt:1: needle c", "/ws/src/big.txt:3000: line 2999 of");
        ConfinedCalls.Selected.calls = counting;
        assertThat(OpsWorkspace.modelText(ops, "read_file", "{\"path\":\"/ws/src/a.md\"}"))
                .isEqualTo("# a\nline two\n");
        assertThat(counting.opens.get()).isEqualTo(1);
    }

    @Test
    void typeOnlyAttributesAnswerTheTypeAndNothingElse() {
        for (TypedName.Type type : List.of(TypedName.Type.FILE, TypedName.Type.DIRECTORY, TypedName.Type.LINK,
                TypedName.Type.OTHER)) {
            BasicFileAttributes attributes = new TypedName("x", type).attributes();
            assertThat(List.of(attributes.isRegularFile(), attributes.isDirectory(), attributes.isSymbolicLink(),
                    attributes.isOther())).containsExactly(type == TypedName.Type.FILE,
                    type == TypedName.Type.DIRECTORY, type == TypedName.Type.LINK, type == TypedName.Type.OTHER);
            assertThat(attributes.fileKey()).isNull();
            for (Runnable unknown : List.<Runnable>of(attributes::size, attributes::lastModifiedTime,
                    attributes::lastAccessTime, attributes::creationTime)) {
                org.assertj.core.api.Assertions.assertThatThrownBy(unknown::run)
                        .isInstanceOf(UnsupportedOperationException.class);
            }
        }
        assertThat(List.of(TypedName.Type.of(8), TypedName.Type.of(4), TypedName.Type.of(10), TypedName.Type.of(0),
                TypedName.Type.of(1), TypedName.Type.of(2), TypedName.Type.of(6), TypedName.Type.of(12)))
                .containsExactly(TypedName.Type.FILE, TypedName.Type.DIRECTORY, TypedName.Type.LINK,
                        TypedName.Type.UNKNOWN, TypedName.Type.OTHER, TypedName.Type.OTHER, TypedName.Type.OTHER,
                        TypedName.Type.OTHER);
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> new TypedName("x", TypedName.Type.UNKNOWN).attributes())
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void theJdkPathDecidesEverythingButAPlainSuccess() {
        // NONE never decides; a layer that declines everything leaves every answer to the JDK's path
        assertThat(ConfinedCalls.NONE.openRegularFile(null, w.ws.resolve("notes.txt"))).isNull();
        assertThat(ConfinedCalls.NONE.list(null, null, 10)).isNull();
        assertThat(ConfinedCalls.NONE.openDirectory(null, w.ws)).isNull();
        assertThat(ConfinedCalls.NONE.name()).isEqualTo("none");
    }

    @Test
    void aDirectoryIsOpenedConfinedOnlyWhereItIsAPlainDirectoryBelowTheMount() throws IOException {
        ConfinedCalls layer = ConfinedCalls.current();
        PathEntry entry = PathEntry.of(w.ws.toString(), "ws", dev.mero.core.Permission.READ);
        try (SecureDirectory deep = layer.openDirectory(entry, w.ws.resolve("src/deep"))) {
            if (!layer.walks()) {
                assertThat(deep).isNull();
                return;
            }
            assertThat(deep.path()).isEqualTo(w.ws.resolve("src/deep"));
            assertThat(deep.names(10)).containsExactlyInAnyOrder("b.md", "er");
            assertThat(deep.attributes("er").orElseThrow().isDirectory()).isTrue();
        }
        // links (out of the mount or inside it), a FIFO, a file, the mount itself and a path outside it: not decided
        for (Path refused : List.of(w.ws.resolve("src/outdir"), w.ws.resolve("src/dotdot"), w.ws.resolve("src/pipe"),
                w.ws.resolve("src/a.md"), w.ws.resolve("src/missing"), w.ws, w.outside)) {
            assertThat(assertTimeoutPreemptively(BOUND, () -> layer.openDirectory(entry, refused)))
                    .as(refused.toString()).isNull();
        }
    }

    private void assertSameAnswers(String what, Supplier<String> call) {
        List<String> before = w.snapshot();
        String layered = assertTimeoutPreemptively(BOUND, call::get, what);
        ConfinedCalls.Selected.calls = ConfinedCalls.NONE;
        String jdk;
        try {
            jdk = assertTimeoutPreemptively(BOUND, call::get, what);
        } finally {
            ConfinedCalls.Selected.calls = selected;
        }
        assertThat(layered).as(what).isEqualTo(jdk).doesNotContain("top secret");
        assertThat(w.snapshot()).as(what).isEqualTo(before);
    }

    private static void restoreProperty(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }

    /**
     * A stand-in for the kernel layer on any JVM: lists with types read by path and opens by path without following
     * a link, counting its calls.
     */
    private static final class CountingDouble implements ConfinedCalls {
        final AtomicInteger listings = new AtomicInteger();
        final AtomicInteger opens = new AtomicInteger();

        @Override
        public String name() {
            return "double";
        }

        @Override
        public SeekableByteChannel openRegularFile(PathEntry entry, Path file) {
            try {
                if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                    return null;
                }
                opens.incrementAndGet();
                return Files.newByteChannel(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
            } catch (IOException e) {
                return null;
            }
        }

        @Override
        public SecureDirectory openDirectory(PathEntry entry, Path directory) {
            return null;
        }

        @Override
        public List<TypedName> list(PathEntry entry, SecureDirectory directory, int max) {
            listings.incrementAndGet();
            List<TypedName> names = new ArrayList<>();
            try {
                directory.scan(name -> {
                    names.add(new TypedName(name, type(directory, name)));
                    return names.size() <= max;
                });
            } catch (IOException e) {
                return null;
            }
            return names;
        }

        private static TypedName.Type type(SecureDirectory directory, String name) {
            try {
                Optional<BasicFileAttributes> a = directory.attributes(name);
                if (a.isEmpty() || name.startsWith("e")) {
                    // some unknown types, as a file system without d_type gives: read per entry by the walk
                    return TypedName.Type.UNKNOWN;
                }
                return a.get().isDirectory() ? TypedName.Type.DIRECTORY : a.get().isSymbolicLink()
                        ? TypedName.Type.LINK : a.get().isRegularFile() ? TypedName.Type.FILE : TypedName.Type.OTHER;
            } catch (IOException e) {
                return TypedName.Type.UNKNOWN;
            }
        }
    }
}
