package dev.mero.examples.readme;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every relative link of the README, {@code CONTRIBUTING.md}, {@code SECURITY.md}, {@code BENCHMARKS.md} and the
 * {@code docs/} pages leads to a file that exists and, with a {@code #fragment}, to a heading of that page (as
 * GitHub names its anchors). Moving a section between pages cannot leave a dead link behind.
 */
class DocsLinksTest {

    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6} (.+)$", Pattern.MULTILINE);
    private static final Pattern FENCE = Pattern.compile("```.*?```", Pattern.DOTALL);

    @Test
    void everyRelativeLinkLeadsToAFileAndHeadingThatExist() {
        List<String> dead = new ArrayList<>();
        List<Path> pages = new ArrayList<>(DocPages.all());
        pages.add(DocPages.repositoryRoot().resolve("BENCHMARKS.md"));
        for (Path page : pages) {
            Matcher matcher = LINK.matcher(withoutCode(DocPages.read(page)));
            while (matcher.find()) {
                String link = matcher.group(1);
                if (link.matches("[a-z]+:.*")) {
                    continue; // https:, mailto:
                }
                String file = link.contains("#") ? link.substring(0, link.indexOf('#')) : link;
                String fragment = link.contains("#") ? link.substring(link.indexOf('#') + 1) : null;
                Path target = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                if (!Files.exists(target)) {
                    dead.add(DocPages.name(page) + ": " + link + " (no such file)");
                } else if (fragment != null && !anchors(target).contains(fragment)) {
                    dead.add(DocPages.name(page) + ": " + link + " (no such heading)");
                }
            }
        }
        assertThat(dead).as("dead links").isEmpty();
    }

    @Test
    void anchorsAreNamedAsGitHubNamesThem() {
        assertThat(anchor("Audit log (`dev.mero.core.audit`)")).isEqualTo("audit-log-devmerocoreaudit");
        assertThat(anchor("Several instances, one database")).isEqualTo("several-instances-one-database");
    }

    private static List<String> anchors(Path page) {
        List<String> anchors = new ArrayList<>();
        if (Files.isDirectory(page) || !page.toString().endsWith(".md")) {
            return anchors;
        }
        Matcher matcher = HEADING.matcher(withoutCode(DocPages.read(page)));
        while (matcher.find()) {
            anchors.add(anchor(matcher.group(1)));
        }
        return anchors;
    }

    /** GitHub's anchor of a heading: lower case, punctuation dropped, spaces turned into hyphens. */
    static String anchor(String heading) {
        return heading.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
    }

    private static String withoutCode(String markdown) {
        return FENCE.matcher(markdown).replaceAll("");
    }
}
