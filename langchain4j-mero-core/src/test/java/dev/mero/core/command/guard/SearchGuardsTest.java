package dev.mero.core.command.guard;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.mero.core.command.guard.GuardCalls.check;
import static org.assertj.core.api.Assertions.assertThat;

/** The guards of the search programs: rg and grep. */
class SearchGuardsTest {

    @ParameterizedTest
    @ValueSource(strings = {"rg --pre id x", "rg --pre=id x", "rg --pr=id x", "rg --pre-glob '*.x' --pre id x",
            "rg -z x", "rg -iz x", "rg --search-zip x", "rg --search-z x", "rg --hostname-bin=id x", "rg -L x",
            "rg --follow x", "rg -nL x", "rg x --pre id"})
    void rg_preprocessors_decompressors_and_link_following_are_refused(String line) {
        assertThat(check(ArgumentGuards.ripgrep(), line)).as(line).isPresent();
    }

    @Test
    void rg_messages() {
        assertThat(check(ArgumentGuards.ripgrep(), "rg --pre=id x")).contains("the option '--pre' makes rg run other "
                + "programs (preprocessors or decompressors); search the files as they are");
        assertThat(check(ArgumentGuards.ripgrep(), "rg -iz x")).contains("the option '-z' makes rg run other "
                + "programs (preprocessors or decompressors); search the files as they are");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rg x", "rg -n -i x sub", "rg --pretty x", "rg -e z x", "rg -ez x", "rg --no-pre x",
            "rg --no-follow x", "rg -g '*.z' x", "rg --passthru x", "rg -- --pre"})
    void ordinary_rg_passes(String line) {
        assertThat(check(ArgumentGuards.ripgrep(), line)).as(line).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"grep -R x .", "grep -iR x .", "grep --dereference-recursive x .", "grep --deref x .",
            "egrep -R x .", "fgrep -R x ."})
    void grep_following_every_link_is_refused(String line) {
        assertThat(check(ArgumentGuards.grep(), line)).as(line).contains("the option "
                + (line.contains("--") ? "'" + line.split(" ")[1] + "'" : "'-R'")
                + " follows symbolic links, which can lead outside the mounted entries; use -r instead");
    }

    @ParameterizedTest
    @ValueSource(strings = {"grep -r x .", "grep -e R x", "grep -eR x", "grep -f patterns x", "grep -n -- -R x",
            "grep --include='*.java' -rn x sub", "grep -d recurse x ."})
    void ordinary_grep_passes(String line) {
        assertThat(check(ArgumentGuards.grep(), line)).as(line).isEmpty();
    }
}
