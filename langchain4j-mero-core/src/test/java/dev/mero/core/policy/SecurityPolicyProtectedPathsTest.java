package dev.mero.core.policy;

import dev.mero.core.InvalidPolicyException;
import dev.mero.core.PathAccessDeniedException;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The policy keys {@code protected_paths} and {@code protected_paths_defaults}, in YAML and JSON. */
class SecurityPolicyProtectedPathsTest {

    @TempDir
    Path tmp;

    private Path dir;

    @BeforeEach
    void setUp() throws IOException {
        dir = tmp.toRealPath();
        Files.createDirectories(dir.resolve("workspace/data"));
        Files.writeString(dir.resolve("workspace/.env"), "TOKEN=1");
        Files.writeString(dir.resolve("workspace/data/prod.sqlite"), "rows");
    }

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    private static String yaml(String protection) {
        return "name: worker_1\npaths:\n  - path: workspace\n    slug: ws\n    allow: [READ]\n" + protection;
    }

    @Test
    void protectedPathsAddToTheDefaultSet() throws IOException {
        SecurityContext context = SecurityPolicy.load(write("p.yaml", yaml("protected_paths: ['**/*.sqlite']\n")));
        assertThat(context.protectedPaths()).startsWith(".env").endsWith("**/*.sqlite");
        assertThatThrownBy(() -> context.checkPathAccess("/ws/data/prod.sqlite", Permission.READ))
                .isInstanceOf(PathAccessDeniedException.class).hasMessageContaining("'**/*.sqlite'");
        assertThatThrownBy(() -> context.checkPathAccess("/ws/.env", Permission.READ))
                .hasMessageContaining("'.env'");
    }

    @Test
    void theDefaultsCanBeTurnedOffInJsonToo() throws IOException {
        SecurityContext context = SecurityPolicy.load(write("p.json", "{\"paths\": [{\"path\": \"workspace\", "
                + "\"slug\": \"ws\", \"allow\": [\"READ\"]}], \"protected_paths\": [\"*.sqlite\"], "
                + "\"protected_paths_defaults\": false}"));
        assertThat(context.protectedPaths()).containsExactly("*.sqlite");
        assertThat(context.checkPathAccess("/ws/.env", Permission.READ).virtualPath()).isEqualTo("/ws/.env");
    }

    @Test
    void withoutTheKeysTheDefaultSetApplies() throws IOException {
        SecurityContext context = SecurityPolicy.load(write("p.yaml", yaml("")));
        assertThat(context.protectedPaths()).isEqualTo(SecurityContext.DEFAULT_PROTECTED_PATHS);
        SecurityContext explicit = SecurityPolicy.load(write("q.yaml", yaml("protected_paths_defaults: true\n"
                + "protected_paths: []\n")));
        assertThat(explicit.protectedPaths()).isEqualTo(SecurityContext.DEFAULT_PROTECTED_PATHS);
    }

    @Test
    void aMalformedGlobNamesItsField() throws IOException {
        Path file = write("p.yaml", yaml("protected_paths: ['*.sqlite', '[oops']\n"));
        assertThatThrownBy(() -> SecurityPolicy.load(file))
                .isInstanceOf(InvalidPolicyException.class)
                .hasMessageContaining("protected_paths[1]")
                .hasMessageContaining("Invalid protected path '[oops'");
    }

    @Test
    void wrongTypesAndNullsAreRefused() throws IOException {
        assertThatThrownBy(() -> SecurityPolicy.load(write("a.yaml", yaml("protected_paths: '*.sqlite'\n"))))
                .isInstanceOf(InvalidPolicyException.class).hasMessageContaining("protected_paths")
                .hasMessageContaining("expected a list");
        assertThatThrownBy(() -> SecurityPolicy.load(write("b.yaml", yaml("protected_paths: [1]\n"))))
                .isInstanceOf(InvalidPolicyException.class).hasMessageContaining("protected_paths[0]")
                .hasMessageContaining("expected a string");
        assertThatThrownBy(() -> SecurityPolicy.load(write("c.yaml", yaml("protected_paths_defaults: 'no'\n"))))
                .isInstanceOf(InvalidPolicyException.class).hasMessageContaining("protected_paths_defaults")
                .hasMessageContaining("expected true or false");
        assertThatThrownBy(() -> SecurityPolicy.load(write("d.yaml", yaml("protected_paths: ~\n"))))
                .isInstanceOf(InvalidPolicyException.class).hasMessageContaining("has no value");
        assertThatThrownBy(() -> SecurityPolicy.load(write("e.yaml", yaml("protected_path: ['*.db']\n"))))
                .isInstanceOf(InvalidPolicyException.class).hasMessageContaining("unknown key 'protected_path'")
                .hasMessageContaining("protected_paths, protected_paths_defaults");
    }
}
