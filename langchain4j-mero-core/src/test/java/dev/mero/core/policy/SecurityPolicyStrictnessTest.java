package dev.mero.core.policy;

import dev.mero.core.Fifos;
import dev.mero.core.InvalidPolicyException;
import dev.mero.core.PathEntry;
import dev.mero.core.SecurityContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A policy file loads as exactly what it says, or not at all. */
class SecurityPolicyStrictnessTest {

    @TempDir
    Path tmp;

    Path dir;

    @BeforeEach
    void setUp() throws IOException {
        dir = tmp.toRealPath();
        Files.createDirectories(dir.resolve("workspace"));
    }

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    private static void assertRefused(Path file, String problem) {
        assertThatThrownBy(() -> SecurityPolicy.load(file))
                .isInstanceOf(InvalidPolicyException.class)
                .hasMessageContaining(problem);
    }

    @Test
    void contentAfterTheFirstJsonValueIsRefused() throws IOException {
        // a stray brace used to end the policy early and drop the scopes after it
        assertRefused(write("p.json", "{\"name\": \"w\"}\n{\"scopes\": [\"files:*:read\"]}"), "after its first value");
        assertRefused(write("q.json", "{\"name\": \"w\"} \"x\""), "after its first value");
        assertRefused(write("r.json", "{\"name\": \"w\", \"paths\": []}}, \"scopes\": []}"), "not valid JSON");
    }

    @Test
    void aSecondYamlDocumentIsRefused() throws IOException {
        assertRefused(write("p.yaml", "name: w\n---\nscopes: ['files:*:read']\n"), "after its first document");
        assertRefused(write("q.yaml", "name: w\n---\n"), "after its first document");
    }

    @Test
    void yamlAnchorsAndAliasesAreRefused() throws IOException {
        assertRefused(write("alias.yaml", "x: &danger rm\ndenied_commands: [*danger]\n"), "anchor or alias");
        assertRefused(write("merge.yaml", "paths:\n  - &ws {path: workspace, slug: ws}\n"), "anchor or alias");
    }

    @ParameterizedTest
    @CsvSource({"'paths: [{path: \"\", slug: ws}]', paths[0].path",
            "'paths: [{path: \"  \", slug: ws}]', paths[0].path",
            "'audit: {jsonl: \"\"}', audit.jsonl"})
    void anEmptyPathIsRefused(String yaml, String field) throws IOException {
        assertThatThrownBy(() -> SecurityPolicy.load(write("p.yaml", yaml)))
                .isInstanceOf(InvalidPolicyException.class)
                .hasMessageContaining(field)
                .hasMessageContaining("is empty");
    }

    @Test
    @Timeout(60)
    void aFifoPolicyIsRefusedBeforeItIsOpened() throws Exception {
        Path fifo = Fifos.mkfifo(dir.resolve("policy.yaml"));
        Path link = Files.createSymbolicLink(dir.resolve("link.yaml"), fifo);

        assertRefused(fifo, "not a regular file");
        assertRefused(link, "not a regular file");
    }

    @Test
    @Timeout(60)
    void aFifoFedMoreThanTheLimitIsNeverRead() throws Exception {
        Path fifo = Fifos.mkfifo(dir.resolve("fed.yaml"));
        // a writer that would feed 3 MiB; it blocks until someone opens the FIFO for reading
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            try (OutputStream out = Files.newOutputStream(fifo)) {
                out.write(new byte[3 << 20]);
            } catch (IOException expected) {
                // the reader closed the pipe
            }
        });

        assertRefused(fifo, "not a regular file");
        // unblock the writer: open and drain the FIFO ourselves
        try (var in = Files.newInputStream(fifo)) {
            in.transferTo(OutputStream.nullOutputStream());
        }
        writer.get(30, TimeUnit.SECONDS);
    }

    @Test
    void aLinkToADeviceOrADirectoryIsRefused() throws IOException {
        assertRefused(Files.createSymbolicLink(dir.resolve("zero.yaml"), Path.of("/dev/zero")), "not a regular file");
        assertRefused(Files.createDirectory(dir.resolve("dir.yaml")), "not a regular file");
    }

    @Test
    void theSizeLimitCountsBytesActuallyRead() throws IOException {
        String padding = "#".repeat(SecurityPolicy.MAX_FILE_BYTES) + "\nname: w\n";
        assertRefused(write("big.yaml", padding), "larger than");
        String exactly = "name: w\n" + "#".repeat(SecurityPolicy.MAX_FILE_BYTES - "name: w\n".length());
        assertThat(SecurityPolicy.load(write("exact.yaml", exactly)).name()).isEqualTo("w");
    }

    @Test
    @Timeout(60)
    void anAuditFileThatIsAFifoIsRefusedBeforeItIsOpened() throws Exception {
        Fifos.mkfifo(dir.resolve("audit.jsonl"));

        assertRefused(write("p.yaml", "audit: {jsonl: audit.jsonl}\n"), "cannot be opened");
    }

    @Test
    void aPlainPolicyStillLoads() throws IOException {
        SecurityContext context = SecurityPolicy.load(write("p.yaml",
                "name: w\npaths: [{path: workspace, slug: ws, allow: [READ]}]\nscopes: ['files:*:read']\n"));

        assertThat(context.name()).isEqualTo("w");
        assertThat(context.paths()).extracting(PathEntry::slug).containsExactly("ws");
        assertThat(context.scopes().isRestricted()).isTrue();
    }

    @Test
    void anAuditFileCanBeMadeToFailClosed() throws IOException {
        SecurityContext closed = SecurityPolicy.load(write("c.yaml",
                "audit: {jsonl: audit.jsonl, fail_closed: true}\n"));
        SecurityContext open = SecurityPolicy.load(write("o.yaml", "audit: {jsonl: audit.jsonl}\n"));

        assertThat(closed.auditLog().failClosed()).isTrue();
        assertThat(closed.auditLog().sinkCount()).isEqualTo(1);
        assertThat(open.auditLog().failClosed()).isFalse();
        assertThatThrownBy(() -> SecurityPolicy.load(write("b.yaml", "audit: {fail_closed: 'yes'}\n")))
                .isInstanceOf(InvalidPolicyException.class)
                .hasMessageContaining("audit.fail_closed")
                .hasMessageContaining("expected true or false");
    }
}
