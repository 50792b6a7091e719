package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.re2j.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What {@link SearchPattern} takes for a construct RE2 cannot run, and what only looks like one: quoted text,
 * escaped characters, class members and literal braces are left to RE2, which accepts them.
 */
class SearchPatternTest {

    @ParameterizedTest
    @CsvSource(delimiter = ';', quoteCharacter = '"', value = {
        "\\Qa(?=b)\\E(?=c);  a lookahead",
        "\\Qa(?=b)\\Ea++;    a possessive quantifier ('++')",
        "[]a](?=b);          a lookahead",
        "[^]a](?=b);         a lookahead",
        "[\\]](?=b);         a lookahead",
        "[a]](?=b);          a lookahead",
        "\\[(?=b);           a lookahead",
        "\\\\(?=b);          a lookahead",
        "\\9;                a backreference ('\\9')",
        "a{2}+;              a possessive quantifier ('}+')",
        "a{2,}+;             a possessive quantifier ('}+')",
        "a{2,5}+;            a possessive quantifier ('}+')",
        "\\\\{2}+;           a possessive quantifier ('}+')",
        "(?<!a);             a lookbehind ('(?<!')",
        "(?!;                a lookahead ('(?!')",
        "a\\Z;               '\\Z'"})
    void aConstructRe2CannotRunIsNamed(String regex, String named) {
        assertThat(SearchPattern.unsupported(regex)).startsWith(named);
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', quoteCharacter = '"', value = {
        "\\Qa(?=b)", "\\Qa(?=b)\\E", "[(?=]b", "[]a(?=b)]", "[^](?=]", "[a\\]+(?=]", "[\\1]", "\\0", "a{,5}+",
        "a{x}+", "a{}+", "a{2,3,4}+", "\\{2}+", "x\\{2}\\+", "a\\++", "a\\*+", "(?i)a", "(?P<n>a)", "(?:a)+",
        "a|b", "\\pL+", "[[:alpha:]]+"})
    void whatOnlyLooksLikeOneIsLeftToRe2(String regex) {
        assertThat(SearchPattern.unsupported(regex)).isNull();
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', quoteCharacter = '"', value = {
        "[]a];        ]", "[^]a];       b", "a{2,};       aaa", "\\{2}+;      {2}}", "a\\++;       a++",
        "(?P<n>a);    a", "\\Qa(?=b)\\E; a(?=b)", "[]a(?=b)];   ?"})
    void whatIsLeftToRe2MeansThereWhatItSays(String regex, String sample) {
        assertThat(Pattern.compile(regex).matcher(sample).matches()).isTrue();
    }
}
