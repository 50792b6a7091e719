package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.List;
import java.util.regex.PatternSyntaxException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@link GlobMatcher} answers exactly as the JDK's {@code glob:} path matcher on globs and paths that do not make
 * the JDK backtrack for long: the same globs are refused (with the same description) and the same paths match.
 */
class GlobMatcherProperties {

    /** A piece of a glob and names that may or may not match it. */
    private record Piece(String glob, List<String> samples) {
    }

    private static final List<Piece> PIECES = List.of(
            new Piece("a", List.of("a", "b")), new Piece("b", List.of("b")), new Piece(".", List.of(".", "a")),
            new Piece("-", List.of("-")), new Piece("\u00E9", List.of("\u00E9", "e")),
            new Piece("\uD83D\uDE00", List.of("\uD83D\uDE00", "\u263A")), new Piece("^", List.of("^")),
            new Piece("!", List.of("!")), new Piece("}", List.of("}")), new Piece(",", List.of(",")),
            new Piece("?", List.of("a", "\u00E9", "\uD83D\uDE00", "\n", "/", "")),
            new Piece("*", List.of("", "a", "ab", "a.b", "\n", "a/b", "\u2028")),
            new Piece("**", List.of("", "a", "a/b", "/", "x/", "\n", "\r", "\u0085", "\u2029")),
            new Piece("/", List.of("/", "a")),
            new Piece("[ab]", List.of("a", "b", "c")), new Piece("[!a-c]", List.of("d", "a", "/", "\n")),
            new Piece("[^a]", List.of("^", "a")), new Piece("[-a]", List.of("-", "a", "b")),
            new Piece("[a-]", List.of("-", "a", "b")), new Piece("[a-cx]", List.of("b", "x", "d")),
            new Piece("[\\]", List.of("\\", "a")), new Piece("[[&&a]", List.of("[", "&", "a", "b")),
            new Piece("[!!]", List.of("!", "a")), new Piece("[*?{]", List.of("*", "?", "{", "a")),
            new Piece("[\u00E9\uD83D\uDE00]", List.of("\u00E9", "\uD83D\uDE00", "e")),
            new Piece("\\*", List.of("*", "a")), new Piece("\\[", List.of("[")), new Piece("\\{", List.of("{")),
            new Piece("\\\\", List.of("\\")), new Piece("\\a", List.of("a")), new Piece("\\.", List.of(".", "a")),
            new Piece("{a,b}", List.of("a", "b", "c")), new Piece("{*.x,y}", List.of("a.x", ".x", "y", "a/.x")),
            new Piece("{,a}", List.of("", "a")), new Piece("{a/b,c}", List.of("a/b", "c")),
            new Piece("{[ab],**}", List.of("a", "c/d", "")), new Piece("{}", List.of("")));

    @Provide
    Arbitrary<List<Integer>> pieces() {
        return Arbitraries.integers().between(0, PIECES.size() - 1).list().ofMinSize(1).ofMaxSize(7);
    }

    @Provide
    Arbitrary<List<Integer>> choices() {
        return Arbitraries.integers().between(0, 100).list().ofSize(7);
    }

    /** A glob of valid pieces, and names built from the same pieces: many match, many do not. */
    @Property(tries = 2000)
    void validGlobsMatchAsTheJdkMatches(@ForAll("pieces") List<Integer> pieces,
                                        @ForAll("choices") List<Integer> choices) {
        StringBuilder glob = new StringBuilder();
        StringBuilder name = new StringBuilder();
        for (int i = 0; i < pieces.size(); i++) {
            Piece piece = PIECES.get(pieces.get(i));
            glob.append(piece.glob());
            name.append(piece.samples().get(choices.get(i) % piece.samples().size()));
        }
        assertSameAsJdk(glob.toString(), List.of(name.toString(), name + "a", "a" + name));
    }

    @Provide
    Arbitrary<String> anyGlobs() {
        return Arbitraries.of('a', 'b', '*', '?', '[', ']', '{', '}', ',', '!', '^', '-', '\\', '/', '.', '&')
                .list().ofMinSize(1).ofMaxSize(12).map(GlobMatcherProperties::join)
                // a range ending in '\' or '[' is where the JDK's translation to a regular expression misreads
                .filter(glob -> !glob.contains("-\\") && !glob.contains("-["));
    }

    @Provide
    Arbitrary<List<String>> names() {
        return Arbitraries.of('a', 'b', '*', '?', '[', ']', '{', '}', ',', '!', '^', '-', '\\', '/', '.', '&', '\n')
                .list().ofMaxSize(8).map(GlobMatcherProperties::join).list().ofSize(5);
    }

    /** Any string of glob syntax: refused by both with the same description, or matched alike. */
    @Property(tries = 3000)
    void anyGlobIsRefusedOrMatchedAsTheJdkDoes(@ForAll("anyGlobs") String glob,
                                               @ForAll("names") List<String> names) {
        assertSameAsJdk(glob, names);
    }

    private static void assertSameAsJdk(String glob, List<String> names) {
        PathMatcher jdk;
        try {
            jdk = FileSystems.getDefault().getPathMatcher("glob:" + glob);
        } catch (PatternSyntaxException e) {
            // the JDK's own glob errors are named alike; after an empty class ("[]") its regular expression
            // reads the rest of the glob as that class and may describe the refusal otherwise
            boolean globError = e.getPattern().equals(glob);
            assertThatThrownBy(() -> GlobMatcher.compile(glob)).as(glob)
                    .isInstanceOf(GlobMatcher.GlobSyntaxException.class)
                    .hasMessage(globError ? e.getDescription() : "Unclosed character class");
            return;
        }
        GlobMatcher ours = GlobMatcher.compile(glob);
        for (String name : names) {
            // the walk never produces these; Path would normalise them
            if (name.isEmpty() || name.startsWith("/") || name.endsWith("/") || name.contains("//")) {
                continue;
            }
            assertThat(ours.matches(name)).as("glob %s, name %s", glob, name).isEqualTo(jdk.matches(Path.of(name)));
        }
    }

    private static String join(List<Character> characters) {
        StringBuilder out = new StringBuilder(characters.size());
        characters.forEach(out::append);
        return out.toString();
    }
}
