package dev.mero.examples.readme;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Holds the documentation's Java snippets equal to compiled, tested code: every {@code ```java} block of the
 * README, {@code CONTRIBUTING.md}, {@code SECURITY.md} and the {@code docs/} pages ({@link DocPages}) must be one
 * region of {@link ReadmeSnippets}, the PostgreSQL module's {@code ReadmeSnippetsPostgres}, the Spring AI
 * module's {@code ReadmeSnippetTest} or the approval inbox's {@code ReadmeSnippetsInboxTest} (marked {@code // README:begin name} ... {@code // README:end}), and tests
 * run those regions. A snippet that drifts from the code fails here.
 */
class ReadmeSnippetsTest {

    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern REGION =
            Pattern.compile("// README:begin ([\\w-]+)\\n(.*?)\\n\\s*// README:end", Pattern.DOTALL);

    @Test
    void everyJavaBlockOfEveryPageIsARegionOfTheCompiledSnippets() throws IOException {
        Map<String, String> regions = regions();

        assertThat(javaBlocks(DocPages.repositoryRoot().resolve("README.md"))).as("Java blocks in README.md")
                .isNotEmpty();
        for (Path page : DocPages.all()) {
            for (String block : javaBlocks(page)) {
                assertThat(regions.values())
                        .as("%s: block not found verbatim in the snippet sources:%n%s", DocPages.name(page), block)
                        .contains(normalise(block));
            }
        }
    }

    @Test
    void everyRegionAppearsInSomePage() throws IOException {
        List<String> blocks = new ArrayList<>();
        for (Path page : DocPages.all()) {
            javaBlocks(page).stream().map(ReadmeSnippetsTest::normalise).forEach(blocks::add);
        }

        regions().forEach((name, region) ->
                assertThat(blocks).as("region '%s' of the snippet sources is in no page", name).contains(region));
    }

    static List<String> javaBlocks(Path page) {
        List<String> blocks = new ArrayList<>();
        Matcher matcher = JAVA_BLOCK.matcher(DocPages.read(page));
        while (matcher.find()) {
            blocks.add(matcher.group(1));
        }
        return blocks;
    }

    /** The compiled snippets: here, and where a snippet needs a module of its own (a database) to run. */
    private static final List<String> SNIPPET_SOURCES = List.of(
            "langchain4j-mero-examples/src/test/java/dev/mero/examples/readme/ReadmeSnippets.java",
            "langchain4j-mero-postgres/src/test/java/dev/mero/postgres/ReadmeSnippetsPostgres.java",
            "langchain4j-mero-spring-ai/src/test/java/dev/mero/springai/ReadmeSnippetTest.java",
            "langchain4j-mero-spring-boot-starter/src/test/java/dev/mero/springboot/StarterApplicationTest.java",
            "langchain4j-mero-approval-inbox/src/test/java/dev/mero/inbox/ReadmeSnippetsInboxTest.java");

    static Map<String, String> regions() throws IOException {
        Map<String, String> regions = new LinkedHashMap<>();
        for (String source : SNIPPET_SOURCES) {
            String text = Files.readString(DocPages.repositoryRoot().resolve(source), StandardCharsets.UTF_8);
            Matcher matcher = REGION.matcher(text);
            while (matcher.find()) {
                assertThat(regions.put(matcher.group(1), normalise(matcher.group(2))))
                        .as("region name '%s' used twice", matcher.group(1)).isNull();
            }
        }
        assertThat(regions).as("regions in ReadmeSnippets.java").isNotEmpty();
        return regions;
    }

    /** Strips the common indentation and trailing blank lines, so a region indented in a method matches. */
    static String normalise(String code) {
        List<String> lines = code.lines().collect(Collectors.toList());
        while (!lines.isEmpty() && lines.get(lines.size() - 1).isBlank()) {
            lines.remove(lines.size() - 1);
        }
        while (!lines.isEmpty() && lines.get(0).isBlank()) {
            lines.remove(0);
        }
        int indent = lines.stream().filter(line -> !line.isBlank())
                .mapToInt(line -> line.length() - line.stripLeading().length()).min().orElse(0);
        return lines.stream().map(line -> line.isBlank() ? "" : line.substring(indent).stripTrailing())
                .collect(Collectors.joining("\n"));
    }
}
