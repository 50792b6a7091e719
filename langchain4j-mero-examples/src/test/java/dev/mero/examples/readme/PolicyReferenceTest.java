package dev.mero.examples.readme;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mero.core.InvalidPolicyException;
import dev.mero.core.PathEntry;
import dev.mero.core.SecurityContext;
import dev.mero.core.policy.SecurityPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The policy-format reference ({@code docs/policy-files.md}, "Every key") names exactly the keys the loader knows,
 * aliases included. The loader is asked, not read: a probe key no policy uses is put into each mapping, and the
 * loader's refusal ("unknown key ... (known keys: ...)") lists the keys it accepts there; each of those is probed
 * again as a mapping and as a list of mappings, so a new section is found as soon as the loader accepts it.
 */
class PolicyReferenceTest {

    private static final String PROBE = "zz_reference_probe";
    private static final Pattern KNOWN_KEYS =
            Pattern.compile("unknown key '" + PROBE + "' \\(known keys: ([^)]*)\\)");
    private static final Pattern TABLE_KEY = Pattern.compile("^\\| `([a-z0-9_.\\[\\]]+)` \\|", Pattern.MULTILINE);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;
    private int files;

    @Test
    void theReferenceTableNamesEveryKeyTheLoaderKnowsAndNoOther() throws IOException {
        Set<String> loader = new TreeSet<>();
        explore(List.of(), loader);

        assertThat(loader).as("the probe finds the loader's sections").contains("name", "paths[].slug",
                "commands.sandbox.network", "limits.rate.burst", "store.password_env", "paths[].allowed_permission");
        assertThat(documentedKeys()).as("keys in the table of docs/policy-files.md ('Every key')")
                .containsExactlyInAnyOrderElementsOf(loader);
    }

    @Test
    void theProbeIsRefusedAsAnUnknownKeyNamingTheKnownOnes() throws IOException {
        Path policy = write(Map.of("limits", Map.of(PROBE, 1)));

        assertThatThrownBy(() -> SecurityPolicy.load(policy))
                .isInstanceOf(InvalidPolicyException.class)
                .hasMessageContaining("limits." + PROBE)
                .hasMessageContaining("(known keys: rate, retry_budget)");
    }

    @Test
    void theFullExampleOfThePageLoadsAndUsesEverySection() throws IOException {
        String page = DocPages.read(DocPages.docs("policy-files.md"));
        String example = page.substring(page.indexOf("```yaml\n", page.indexOf("A policy with every section")) + 8);
        example = example.substring(0, example.indexOf("```"));
        for (String section : List.of("name", "permissions", "paths", "commands", "approval", "scopes", "limits",
                "audit", "store")) {
            assertThat(example).as("the example shows '%s'", section).containsPattern("(?m)^" + section + ":");
        }
        Files.createDirectories(tmp.resolve("workspace"));
        Files.createDirectories(tmp.resolve("docs"));
        Files.createDirectories(tmp.resolve("audit"));
        // the store section needs langchain4j-mero-postgres and a database (its own tests load such a policy)
        Path policy = Files.writeString(tmp.resolve("policy.yaml"), example.substring(0, example.indexOf("\nstore:")));

        SecurityContext context = SecurityPolicy.load(policy);

        assertThat(context.name()).isEqualTo("worker_1");
        assertThat(context.paths()).extracting(PathEntry::slug).containsExactly("ws", "docs");
        assertThat(context.commandSandbox().network()).isFalse();
    }

    /** Records the keys the mapping at {@code place} accepts and explores each of them. */
    private void explore(List<String> place, Set<String> keys) throws IOException {
        for (String key : knownKeys(place).orElseThrow()) {
            List<String> child = new ArrayList<>(place);
            child.add(key);
            keys.add(String.join(".", child).replace(".[]", "[]"));
            if (knownKeys(child).isPresent()) {
                explore(child, keys);
            } else {
                List<String> items = new ArrayList<>(child);
                items.add("[]");
                if (knownKeys(items).isPresent()) {
                    explore(items, keys);
                }
            }
        }
    }

    /** The keys the loader accepts in a mapping at {@code place}; empty if no mapping is read there. */
    private Optional<List<String>> knownKeys(List<String> place) throws IOException {
        Object value = Map.of(PROBE, 1);
        for (int i = place.size() - 1; i >= 0; i--) {
            value = place.get(i).equals("[]") ? List.of(value) : Map.of(place.get(i), value);
        }
        Path policy = write(value);
        try {
            SecurityPolicy.load(policy);
            return Optional.empty();
        } catch (InvalidPolicyException e) {
            Matcher matcher = KNOWN_KEYS.matcher(e.getMessage());
            return matcher.find() ? Optional.of(Arrays.asList(matcher.group(1).split(", "))) : Optional.empty();
        }
    }

    private Path write(Object policy) throws IOException {
        Path file = tmp.resolve("policy-" + files++ + ".json");
        JSON.writeValue(file.toFile(), policy);
        return file;
    }

    private static Set<String> documentedKeys() {
        String page = DocPages.read(DocPages.docs("policy-files.md"));
        String table = page.substring(page.indexOf("## Every key"));
        Set<String> keys = new TreeSet<>();
        Matcher matcher = TABLE_KEY.matcher(table);
        while (matcher.find()) {
            assertThat(keys.add(matcher.group(1))).as("key '%s' listed twice", matcher.group(1)).isTrue();
        }
        return keys;
    }
}
