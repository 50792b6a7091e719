package dev.mero.core.command.guard;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sed script reader on its own: every spelling GNU sed accepts for an address, a blank, a label or a bracket
 * expression is read to its end (each accepted script here compiles with {@code sed --sandbox}), and a script
 * whose regular expression ends elsewhere for sed than for a naive reader is refused.
 */
class SedScriptTest {

    @ParameterizedTest
    @ValueSource(strings = {"1 d", "$! d", "1! d", "q 5", "q5", "1 ,3p", "1, 3p", "1,/x/p", "1,+2p", "1,~4p",
            "/x/Ip", "/x/Mp", "\\%x%p", "\\%x%Ip", "b end;:end", ":a;N;$!b a", "y/a/b/ ;p", "s/[abc]/x/",
            "s/[]abc]/x/", "s/[^]abc]/x/", "s/[^]]/x/", "s/[a]]/x/", "s/[[:alpha:]]/x/", "s/[[:alpha:][:digit:]]/x/",
            "s/[[.-.]]/x/", "s/[[.].]]/x/", "s/[[=a=]]/x/", "s/[a.b]/x/", "s/[a:b]/x/", "s/[[a]/x/"})
    void scriptsSedAcceptsAreReadToTheirEnd(String script) {
        assertThat(SedScript.check(script)).as(script).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "pp             | the sed guard does not understand 'p' in the script 'pp'",
            "y/a/b/p        | the sed guard does not understand 'p' in the script 'y/a/b/p'",
            "s/a/b/x        | the sed guard does not understand 'x' in the script 's/a/b/x'",
            "s/[]a/]/       | the delimiter '/' appears inside a bracket expression",
            "s/[^]/]/       | the delimiter '/' appears inside a bracket expression",
            "s/[]/]/        | the delimiter '/' appears inside a bracket expression",
            "s/[^/]/x/      | the delimiter '/' appears inside a bracket expression",
            "s/[[:alpha:]/]/ | the delimiter '/' appears inside a bracket expression",
            "s/[[.a.]/]/    | the delimiter '/' appears inside a bracket expression",
            "s/[[=/=]]/x/   | the delimiter '/' appears inside a bracket expression",
            "s/[a/b/        | has an unterminated regular expression or replacement",
            "s/[a/b/[       | has an unterminated regular expression or replacement",
            "'\\'           | the sed address in '\\\\' has no usable delimiter",
            "'1 '           | ends after an address",
            "s a b          | the sed command 's' in 's a b' has no usable delimiter"})
    void scriptsTheReaderCannotReadSafelyAreRefusedWithTheReason(String script, String reason) {
        assertThat(SedScript.check(script)).as(script).hasValueSatisfying(refusal -> assertThat(refusal).contains(reason));
    }
}
