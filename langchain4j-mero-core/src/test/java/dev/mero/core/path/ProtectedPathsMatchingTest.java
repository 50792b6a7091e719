package dev.mero.core.path;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.core.ops.GlobPattern;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The matching of {@link ProtectedPaths} against the plain glob: a path is protected exactly when the glob matches
 * it or a directory above it, whatever the quick test on the last name decides first.
 */
class ProtectedPathsMatchingTest {

    private static final List<String> GLOBS = List.of(".env", ".env.*", "*.pem", "id_rsa*", ".ssh", "**/.aws/credentials",
            "config/creds.yaml", "**/*.sqlite", "secrets/**", "a/**b", "x**", "?.key", "*secret*", "**", "*",
            "{a,b}.txt", "[ab].log", "data/*/dump?.sql", "**/cache/*.tmp", "k?y*.pem", "a\\*b");

    private static final List<String> PATHS = List.of(".env", "app/.env", ".env.local", "app/.env.production",
            "server.pem", "keys/server.pem", "pem", "id_rsa", "id_rsa.pub", "deploy/id_rsa_old", ".ssh", ".ssh/config",
            "home/.ssh/known_hosts/x", ".aws/credentials", "u/.aws/credentials", ".aws/config", "config/creds.yaml",
            "sub/config/creds.yaml", "db/prod.sqlite", "prod.sqlite", "secrets", "secrets/one", "secrets/a/b",
            "a/b", "a/xb", "a/x/yb", "a/bc", "xfile", "x/y/z", "k.key", "kk.key", "topsecret.txt", "a/secret",
            "a.txt", "c.txt", "a.log", "b.log", "c.log", "data/2024/dump1.sql", "data/2024/dump10.sql",
            "data/dump1.sql", "cache/f.tmp", "q/cache/f.tmp", "key.pem", "kay-1.pem", "a*b", "axb", "notes.txt");

    @Test
    void theQuickTestOnTheLastNameNeverChangesTheAnswer() {
        for (String glob : GLOBS) {
            ProtectedPaths protection = ProtectedPaths.none().plus(List.of(glob), false);
            GlobPattern plain = GlobPattern.of(glob);
            for (String path : PATHS) {
                assertThat(protection.match(path)).as(glob + " on " + path).isEqualTo(oracle(plain, glob, path));
            }
        }
    }

    @Test
    void aMountRootIsNeverProtectedByItsOwnGlobs() {
        ProtectedPaths everything = ProtectedPaths.none().plus(List.of("*", "**"), false);
        assertThat(everything.match("")).isEmpty();
        assertThat(everything.match("a")).contains("*");
    }

    @Test
    void theBoundsOfTheLastNameAreWhatEveryMatchStartsAndEndsWith() {
        assertThat(ProtectedPaths.lastNameBounds(".env")).containsExactly(".env", "");
        assertThat(ProtectedPaths.lastNameBounds(".env.*")).containsExactly(".env.", "");
        assertThat(ProtectedPaths.lastNameBounds("*.pem")).containsExactly("", ".pem");
        assertThat(ProtectedPaths.lastNameBounds("k?y*.pem")).containsExactly("k", ".pem");
        assertThat(ProtectedPaths.lastNameBounds("**/.aws/credentials")).containsExactly("credentials", "");
        assertThat(ProtectedPaths.lastNameBounds("a/**b")).containsExactly("", "b");
        assertThat(ProtectedPaths.lastNameBounds("x**")).containsExactly("", "");
        assertThat(ProtectedPaths.lastNameBounds("data/*/dump?.sql")).containsExactly("dump", ".sql");
        assertThat(ProtectedPaths.lastNameBounds("{a,b}.txt")).containsExactly("", "");
        assertThat(ProtectedPaths.lastNameBounds("[ab].log")).containsExactly("", "");
        assertThat(ProtectedPaths.lastNameBounds("a\\*b")).containsExactly("", "");
    }

    /** The glob tried on the path and on each directory above it, without any quick test. */
    private static Optional<String> oracle(GlobPattern glob, String pattern, String path) {
        String[] names = path.split("/");
        StringBuilder prefix = new StringBuilder();
        for (String name : names) {
            prefix.append(prefix.length() == 0 ? "" : "/").append(name);
            if (glob.matches(prefix.toString())) {
                return Optional.of(pattern);
            }
        }
        return Optional.empty();
    }
}
