package dev.mero.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SecurityContext#protectedEntryPattern} answers as {@link SecurityContext#protectedPattern} for every entry
 * a walk can meet (one in a directory that nothing protects): default and own globs, exceptions, globs over whole
 * paths, nested mounts (an entry that is a mount root, a directory inside two mounts), directories asked about in
 * turn and back again.
 */
class ProtectedEntryPatternTest {

    @TempDir
    Path temp;

    @Test
    void everyEntryOfAnUnprotectedDirectoryIsJudgedAsByItsFullPath() throws Exception {
        Path ws = Files.createDirectories(temp.toRealPath().resolve("ws"));
        Path inner = Files.createDirectories(ws.resolve("src/inner"));
        Files.createDirectories(ws.resolve("deploy/secrets"));
        Files.createDirectories(ws.resolve("home/.aws"));
        SecurityContext context = SecurityContext.builder().name("walk")
                .path(PathEntry.of(ws.toString(), "ws", Permission.READ))
                .path(PathEntry.of(inner.toString(), "inner", Permission.READ))
                .protectedPaths("**/secrets/*.txt", "build", "src/*.crt", "notes.md")
                .build();
        List<String> names = List.of("a.txt", ".env", ".env.example", ".env.local", "id_rsa", "id_rsa.pub",
                "server.pem", "build", "x.key", "x.crt", "credentials", "config", "notes.md", "inner", ".ssh", "plain");
        List<Path> directories = List.of(ws, ws.resolve("src"), inner, ws.resolve("deploy"),
                ws.resolve("deploy/secrets"), ws.resolve("home/.aws"), ws.resolve("src"), ws);
        List<String> protectedSeen = new ArrayList<>();
        for (Path directory : directories) {
            assertThat(context.protectedPattern(directory)).as(directory.toString()).isEmpty();
            for (String name : names) {
                Optional<String> expected = context.protectedPattern(directory.resolve(name));
                assertThat(context.protectedEntryPattern(directory, name)).as(directory + " " + name)
                        .isEqualTo(expected);
                expected.ifPresent(protectedSeen::add);
            }
        }
        assertThat(protectedSeen).contains(".env", ".env.*", "id_rsa*", "*.pem", "build", "src/*.crt",
                "**/secrets/*.txt", "**/.aws/credentials", "notes.md", ".ssh");
        // a glob with a directory matches the whole path inside the mount, in that directory only
        assertThat(context.protectedEntryPattern(ws.resolve("src"), "x.crt")).contains("src/*.crt");
        assertThat(context.protectedEntryPattern(ws.resolve("deploy"), "x.crt")).isEmpty();
        assertThat(context.protectedEntryPattern(inner, "x.crt")).isEmpty();
    }

    @Test
    void withoutProtectedPathsNothingIsProtected() throws Exception {
        Path ws = Files.createDirectories(temp.toRealPath().resolve("ws"));
        SecurityContext context = SecurityContext.builder().name("open").defaultProtectedPaths(false)
                .path(PathEntry.of(ws.toString(), "ws", Permission.READ)).build();
        assertThat(context.protectedEntryPattern(ws, ".env")).isEmpty();
    }
}
