package dev.mero.examples.readme;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The documentation the tests hold equal to the code: the README (the front page), {@code CONTRIBUTING.md},
 * {@code SECURITY.md} and every page under {@code docs/}.
 */
final class DocPages {

    private DocPages() {
    }

    /** The repository's root, whether the tests run from it or from the examples module. */
    static Path repositoryRoot() {
        Path here = Path.of("").toAbsolutePath();
        return Files.exists(here.resolve("README.md")) && Files.isDirectory(here.resolve("docs")) ? here
                : here.getParent();
    }

    /** Every page, README first. */
    static List<Path> all() {
        Path root = repositoryRoot();
        List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md"), root.resolve("CONTRIBUTING.md"),
                root.resolve("SECURITY.md")));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(page -> page.getFileName().toString().endsWith(".md")).sorted().forEach(pages::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return pages;
    }

    /** One page of {@code docs/}, e.g. {@code tools.md}. */
    static Path docs(String name) {
        return repositoryRoot().resolve("docs").resolve(name);
    }

    static String read(Path page) {
        try {
            return Files.readString(page, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The page's name relative to the repository, for messages. */
    static String name(Path page) {
        return repositoryRoot().relativize(page).toString();
    }
}
