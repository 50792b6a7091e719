package dev.mero.core.path;

import dev.mero.core.MeroToolsException;
import dev.mero.core.PathAccessDeniedException;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.guard.Operation;
import dev.mero.core.message.Messages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditEventType;
import dev.mero.core.audit.AuditLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Protected paths decided by the core on canonical real paths: the default set, configured globs, links to and
 * through protected paths, nested mounts, narrowing and the audit event. Every protected file holds a secret that
 * no refusal may contain.
 */
class ProtectedPathsTest {

    private static final String SECRET = "SECRET-7f3a9c";

    @TempDir
    Path temp;

    private Path ws;
    private Path outside;
    private final List<AuditEvent> events = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() throws IOException {
        Path root = temp.toRealPath();
        ws = Files.createDirectories(root.resolve("ws"));
        outside = Files.createDirectories(root.resolve("outside"));
        for (String file : List.of(".env", ".env.local", "app/.env.production", "keys/server.pem", "keys/tls.key",
                "keys/store.p12", "keys/store.pfx", "id_rsa", "deploy/id_ed25519", "id_ecdsa", ".ssh/known_hosts",
                ".ssh/config", ".aws/credentials", "home/.aws/credentials", ".netrc", ".git-credentials", ".npmrc",
                ".pypirc", ".docker/config.json", ".kube/config", "web/.npmrc")) {
            write(ws.resolve(file), SECRET + " in " + file);
        }
        for (String file : List.of(".env.example", ".env.sample", ".env.template", "id_rsa.pub",
                "deploy/id_ed25519.pub", "notes.txt", ".aws/config", "environment.txt", "docs/keynote.txt")) {
            write(ws.resolve(file), "readable " + file);
        }
    }

    private static void write(Path file, String content) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
    }

    private SecurityContext.Builder builder() {
        return SecurityContext.builder().name("worker_1")
                .path(PathEntry.of(ws.toString(), "ws", Permission.READ, Permission.WRITE, Permission.DELETE))
                .auditLog(AuditLog.builder().sink(events::add).build());
    }

    @ParameterizedTest
    @CsvSource({
        "/ws/.env, .env", "/ws/.env.local, .env.*", "/ws/app/.env.production, .env.*",
        "/ws/keys/server.pem, *.pem", "/ws/keys/tls.key, *.key", "/ws/keys/store.p12, *.p12",
        "/ws/keys/store.pfx, *.pfx", "/ws/id_rsa, id_rsa*", "/ws/deploy/id_ed25519, id_ed25519*",
        "/ws/id_ecdsa, id_ecdsa*", "/ws/.ssh/known_hosts, .ssh", "/ws/.ssh, .ssh",
        "/ws/.aws/credentials, **/.aws/credentials", "/ws/home/.aws/credentials, **/.aws/credentials",
        "/ws/.netrc, .netrc", "/ws/.git-credentials, .git-credentials", "/ws/.npmrc, .npmrc",
        "/ws/web/.npmrc, .npmrc", "/ws/.pypirc, .pypirc", "/ws/.docker/config.json, **/.docker/config.json",
        "/ws/.kube/config, **/.kube/config", ".env, .env", "/ws/app/../.env, .env"
    })
    void theDefaultSetDeniesEveryPermissionAndNamesThePattern(String path, String pattern) {
        SecurityContext context = builder().build();
        for (Permission[] needed : List.of(new Permission[0], new Permission[] {Permission.READ},
                new Permission[] {Permission.WRITE}, new Permission[] {Permission.DELETE})) {
            assertThatThrownBy(() -> context.checkPathAccess(path, needed))
                    .isInstanceOf(PathAccessDeniedException.class)
                    .hasMessage("Path '" + path + "' is protected by the pattern '" + pattern + "' in context "
                            + "'worker_1': no tool or command may read, write or delete it, whatever the entries "
                            + "allow. Continue without it; only the operator can change the protected paths.")
                    .satisfies(e -> assertThat(((MeroToolsException) e).errorCode()).isEqualTo("path_denied"));
        }
        assertThatThrownBy(() -> context.checkPath(path)).isInstanceOf(PathAccessDeniedException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/ws/.env.example", "/ws/.env.sample", "/ws/.env.template", "/ws/id_rsa.pub",
        "/ws/deploy/id_ed25519.pub", "/ws/notes.txt", "/ws/.aws/config", "/ws/environment.txt",
        "/ws/docs/keynote.txt", "/ws/.aws", "/ws"})
    void committedTemplatesPublicKeysAndLookalikesStayReadable(String path) throws IOException {
        ResolvedPath target = builder().build().checkPathAccess(path, Permission.READ);
        if (Files.isRegularFile(target.realPath())) {
            assertThat(Files.readString(target.realPath())).doesNotContain(SECRET);
        }
    }

    @Test
    void aPublicKeyInsideSshIsProtectedByTheDirectory() throws IOException {
        write(ws.resolve(".ssh/id_rsa.pub"), "ssh-rsa AAAA");
        assertThatThrownBy(() -> builder().build().checkPathAccess("/ws/.ssh/id_rsa.pub", Permission.READ))
                .hasMessageContaining("by the pattern '.ssh'");
    }

    @Test
    void creatingAProtectedFileIsDeniedToo() {
        SecurityContext context = builder().build();
        assertThatThrownBy(() -> context.checkPathAccess("/ws/new/.env", Permission.WRITE))
                .hasMessageContaining("'.env'");
        assertThatThrownBy(() -> context.checkPathAccess("/ws/new.pem", Permission.WRITE))
                .hasMessageContaining("'*.pem'");
        assertThatThrownBy(() -> context.checkPathAccess("/ws/.ssh/authorized_keys", Permission.WRITE))
                .hasMessageContaining("'.ssh'");
        assertThat(ws.resolve("new")).doesNotExist();
    }

    @Test
    void aLinkToAProtectedFileAndAPathThroughALinkToAProtectedDirectoryAreProtected() throws IOException {
        Files.createSymbolicLink(ws.resolve("innocent.txt"), ws.resolve(".env"));
        Files.createSymbolicLink(ws.resolve("relative.txt"), Path.of("keys/server.pem"));
        Files.createSymbolicLink(ws.resolve("config"), ws.resolve(".ssh"));
        Files.createSymbolicLink(ws.resolve("cloud"), Path.of(".aws"));
        SecurityContext context = builder().build();
        assertThatThrownBy(() -> context.checkPathAccess("/ws/innocent.txt", Permission.READ))
                .hasMessage("Path '/ws/innocent.txt' is protected by the pattern '.env' in context 'worker_1': no "
                        + "tool or command may read, write or delete it, whatever the entries allow. Continue without "
                        + "it; only the operator can change the protected paths.");
        assertThatThrownBy(() -> context.checkPathAccess("/ws/relative.txt", Permission.READ))
                .hasMessageContaining("'*.pem'");
        assertThatThrownBy(() -> context.checkPathAccess("/ws/config/known_hosts", Permission.READ))
                .hasMessageContaining("'.ssh'");
        assertThatThrownBy(() -> context.checkPathAccess("/ws/config", Permission.READ))
                .hasMessageContaining("'.ssh'");
        assertThatThrownBy(() -> context.checkPathAccess("/ws/cloud/credentials", Permission.READ))
                .hasMessageContaining("'**/.aws/credentials'");
        assertThatThrownBy(() -> context.checkPathAccess(ws.resolve("innocent.txt").toString(), Permission.READ))
                .hasMessageContaining("'.env'");
    }

    @Test
    void aMountReachedThroughAHostLinkIsJudgedOnItsRealPath() throws IOException {
        Path hostLink = Files.createSymbolicLink(outside.resolve("wslink"), ws);
        SecurityContext context = builder().build();
        assertThatThrownBy(() -> context.checkPathAccess(hostLink.resolve(".env").toString(), Permission.READ))
                .hasMessageContaining("'.env'");
    }

    @Test
    void aRefusalNeverShowsTheContentTheHostPathOrTheLinkTarget() throws IOException {
        Files.createSymbolicLink(ws.resolve("innocent.txt"), ws.resolve(".env"));
        SecurityContext context = builder().build();
        Throwable refusal = org.assertj.core.api.Assertions.catchThrowable(
                () -> context.guard(Operation.FILE_READ, "/ws/innocent.txt"));
        assertThat(refusal.getMessage()).doesNotContain(SECRET).doesNotContain(ws.toString()).doesNotContain("/ws/.env");
        assertThat(((MeroToolsException) refusal).toModelText()).startsWith("Denied: Path '/ws/innocent.txt' is "
                + "protected by the pattern '.env'");
    }

    @Test
    void theAuditEventNamesThePatternAndTheHostPathForTheOperator() {
        SecurityContext context = builder().build();
        assertThatThrownBy(() -> context.guard(Operation.FILE_READ, "/ws/keys/server.pem"))
                .isInstanceOf(PathAccessDeniedException.class);
        assertThat(events).singleElement().satisfies(event -> {
            assertThat(event.type()).isEqualTo(AuditEventType.DENIED);
            assertThat(event.errorCode()).contains("path_denied");
            assertThat(event.reason()).get(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                    .contains("protected by the pattern '*.pem'");
            assertThat(event.detail()).get(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                    .isEqualTo("protected path pattern '*.pem', resolves to '" + ws.resolve("keys/server.pem") + "'");
            assertThat(event.toString()).doesNotContain(SECRET);
        });
    }

    @Test
    void configuredGlobsAddToTheDefaultsAndMatchInsideEveryMount() throws IOException {
        write(ws.resolve("config/creds.yaml"), SECRET);
        write(ws.resolve("sub/config/creds.yaml"), "readable");
        write(ws.resolve("data/prod.sqlite"), SECRET);
        SecurityContext context = builder().protectedPaths("config/creds.yaml", "**/*.sqlite").build();
        assertThat(context.protectedPaths()).startsWith(".env", ".env.*")
                .endsWith("config/creds.yaml", "**/*.sqlite")
                .containsAll(SecurityContext.DEFAULT_PROTECTED_PATHS);
        assertThatThrownBy(() -> context.checkPathAccess("/ws/config/creds.yaml", Permission.READ))
                .hasMessageContaining("'config/creds.yaml'");
        assertThatThrownBy(() -> context.checkPathAccess("/ws/data/prod.sqlite", Permission.READ))
                .hasMessageContaining("'**/*.sqlite'");
        assertThatCode(() -> context.checkPathAccess("/ws/sub/config/creds.yaml", Permission.READ))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> context.checkPathAccess("/ws/.env", Permission.READ)).hasMessageContaining("'.env'");
    }

    @Test
    void aPatternAnchoredInAnOuterMountAlsoHoldsThroughANestedMount() throws IOException {
        write(ws.resolve("config/creds.yaml"), SECRET);
        SecurityContext context = builder()
                .path(PathEntry.of(ws.resolve("config").toString(), "config", Permission.READ))
                .protectedPaths("config/creds.yaml").build();
        assertThatThrownBy(() -> context.checkPathAccess("/config/creds.yaml", Permission.READ))
                .hasMessageContaining("'config/creds.yaml'");
        assertThat(context.protectedPattern(ws.resolve("config/creds.yaml"))).contains("config/creds.yaml");
    }

    @Test
    void withoutTheDefaultsOnlyConfiguredGlobsApply() throws IOException {
        SecurityContext context = builder().defaultProtectedPaths(false).protectedPaths("*.pem").build();
        assertThat(context.protectedPaths()).containsExactly("*.pem");
        assertThat(Files.readString(context.checkPathAccess("/ws/.env", Permission.READ).realPath()))
                .isEqualTo(SECRET + " in .env");
        assertThatThrownBy(() -> context.checkPathAccess("/ws/keys/server.pem", Permission.READ))
                .hasMessageContaining("'*.pem'");
        SecurityContext none = builder().defaultProtectedPaths(false).build();
        assertThat(none.protectedPaths()).isEmpty();
        assertThat(none.protectedPattern(ws.resolve(".ssh/config"))).isEmpty();
    }

    @Test
    void protectedPatternAnswersForHostPathsInsideAndOutsideTheMounts() {
        SecurityContext context = builder().build();
        assertThat(context.protectedPattern(ws.resolve(".ssh/config"))).contains(".ssh");
        assertThat(context.protectedPattern(ws.resolve(".ssh"))).contains(".ssh");
        assertThat(context.protectedPattern(ws.resolve("notes.txt"))).isEmpty();
        assertThat(context.protectedPattern(ws)).isEmpty();
        assertThat(context.protectedPattern(outside.resolve(".env"))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "a\u0000b", "[unclosed"})
    void aMalformedGlobIsRefusedWhenTheContextIsBuilt(String glob) {
        assertThatThrownBy(() -> builder().protectedPaths(glob).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Invalid protected path " + Messages.quote(glob) + ": give a glob");
    }

    @Test
    void theDefaultSetIsDocumentedAndHasNoDuplicates() {
        assertThat(SecurityContext.DEFAULT_PROTECTED_PATHS).doesNotHaveDuplicates()
                .contains(".env", ".env.*", "*.pem", "*.key", "*.p12", "*.pfx", "id_rsa*", "id_ed25519*",
                        "id_ecdsa*", ".ssh", "**/.aws/credentials", ".netrc", ".git-credentials", ".npmrc",
                        ".pypirc", "**/.docker/config.json", "**/.kube/config");
        assertThat(builder().build().protectedPaths()).isEqualTo(SecurityContext.DEFAULT_PROTECTED_PATHS);
        assertThat(builder().protectedPaths(".env").build().protectedPaths())
                .isEqualTo(SecurityContext.DEFAULT_PROTECTED_PATHS);
    }

    @Test
    void aNarrowedChildKeepsEveryProtectedPathOfItsParentAndMayAddMore() throws IOException {
        write(ws.resolve("data/prod.sqlite"), SECRET);
        write(ws.resolve("data/report.csv"), SECRET);
        SecurityContext parent = builder().protectedPaths("**/*.sqlite").build();
        SecurityContext child = parent.narrow("worker_2").allow("ws", Permission.READ).build();
        assertThat(child.protectedPaths()).isEqualTo(parent.protectedPaths());
        assertThatThrownBy(() -> child.checkPathAccess("/ws/data/prod.sqlite", Permission.READ))
                .hasMessageContaining("'**/*.sqlite'");
        assertThatThrownBy(() -> child.checkPathAccess("/ws/.env", Permission.READ)).hasMessageContaining("'.env'");
        // the exceptions of the default set stay exceptions, the child is not stricter than asked
        assertThatCode(() -> child.checkPathAccess("/ws/.env.example", Permission.READ)).doesNotThrowAnyException();

        SecurityContext grandchild = child.narrow("worker_3").protectedPaths("*.csv").build();
        assertThat(grandchild.protectedPaths()).containsAll(parent.protectedPaths()).endsWith("*.csv");
        assertThatThrownBy(() -> grandchild.checkPathAccess("/ws/data/report.csv", Permission.READ))
                .hasMessageContaining("'*.csv'");
        assertThatCode(() -> child.checkPathAccess("/ws/data/report.csv", Permission.READ)).doesNotThrowAnyException();
    }

    @Test
    void aChildOfAParentWithoutDefaultsKeepsExactlyTheParentsGlobs() {
        SecurityContext parent = builder().defaultProtectedPaths(false).protectedPaths("*.pem").build();
        SecurityContext child = parent.narrow("worker_2").build();
        assertThat(child.protectedPaths()).containsExactly("*.pem");
        assertThatThrownBy(() -> builder().build().narrow("bad").protectedPaths("[").build())
                .isInstanceOf(IllegalArgumentException.class);
    }
}
