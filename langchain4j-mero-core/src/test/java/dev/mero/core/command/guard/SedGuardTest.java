package dev.mero.core.command.guard;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.mero.core.command.guard.GuardCalls.check;
import static org.assertj.core.api.Assertions.assertThat;

class SedGuardTest {

    @ParameterizedTest
    @ValueSource(strings = {"sed -i s/a/b/ x", "sed -i.bak s/a/b/ x", "sed --in-place s/a/b/ x",
            "sed --in-place=.bak s/a/b/ x", "sed --in s/a/b/ x", "sed -ni p x", "sed s/a/b/ x -i",
            "sed -f script x", "sed --file=script x", "sed --fi script x", "sed --frobnicate p x", "sed -Q p x",
            "sed --s p x"})
    void in_place_edits_script_files_and_unknown_options_are_refused(String line) {
        assertThat(check(ArgumentGuards.sed(), line)).as(line).isPresent();
    }

    @ParameterizedTest
    @ValueSource(strings = {"sed e x", "sed 'e id' x", "sed '1e id' x", "sed 's/a/id/e' x", "sed 's/a/b/ge' x",
            "sed 's/a/b/ g e' x", "sed 's/a/b/w out' x", "sed 's/a/b/gw out' x", "sed 's/a/b/ w out' x",
            "sed 'w out' x", "sed '/x/w out' x", "sed 'W out' x", "sed 'r /etc/passwd' x", "sed '$R other' x",
            "sed -n 'p;w out' x", "sed -e p -e 'w out' x", "sed --expression='w out' x", "sed --expr='e id' x",
            "sed -ne 'w out' x", "sed '1!G;h;$!d;e id' x", "sed '/a/{p;w out}' x", "sed '/a/!e id' x",
            "sed 'bx w out' x", "sed ':x w out' x", "sed ':a;N;ba;w out' x", "sed 'y/a/b/;w out' x",
            "sed 's|a|b|e' x", "sed 's,a\\,b,c,e' x", "sed '\\%x%w out' x", "sed '1,/x/w out' x",
            "sed '0~3w out' x", "sed 's/[/]/x/e' x", "sed 's/[/]/x/' x", "sed 's/[[:alpha:]/]/x/w out' x",
            "sed 's/[]/]/x/e' x", "sed 'ba#;w out' x", "sed 'z;e' x", "sed 's/a/b/' -e 'w out' x",
            "sed 'k' x", "sed 's/a/b' x", "sed 'p w out' x", "sed 's/a/b/ ;e id' x"})
    void scripts_that_run_write_or_read_are_refused(String line) {
        assertThat(check(ArgumentGuards.sed(), line)).as(line).isPresent();
    }

    @Test
    void messages() {
        assertThat(check(ArgumentGuards.sed(), "sed 's/a/id/e' x")).contains("the flag 'e' of the sed command 's' runs "
                + "the result as a shell command");
        assertThat(check(ArgumentGuards.sed(), "sed -i s/a/b/ x")).contains("the option '-i' edits files in place; let "
                + "sed print the result and write files with the file tools");
        assertThat(check(ArgumentGuards.sed(), "sed 's/[/]/x/' x")).contains("the sed guard cannot tell where the "
                + "regular expression in 's/[/]/x/' ends, because the delimiter '/' appears inside a bracket "
                + "expression; escape it as '\\\\/'");
        assertThat(check(ArgumentGuards.sed(), "sed 'W out' x")).contains("the sed command 'W' writes a file; let sed "
                + "print to standard output instead");
    }

    @ParameterizedTest
    @ValueSource(strings = {"sed s/a/b/ x", "sed -n p x", "sed -n '1,5p' x", "sed 's/error/warning/g' x",
            "sed -E 's/(a|b)+/x/g' x", "sed 's/w/e/' x", "sed 's/a/b/gI' x", "sed 's/a/b/2' x", "sed '/^#/d' x",
            "sed '$!N;P;D' x", "sed ':a;N;$!ba;s/\\n/ /g' x", "sed '1i header' x", "sed '$a w out' x",
            "sed 'y/abc/xyz/' x", "sed -e 's/a/b/' -e 's/c/d/' x", "sed --expression=p -n x", "sed 's|/|_|g' x",
            "sed 's/[\\/]/_/g' x", "sed 's/[[:space:]]*$//' x", "sed '/x/{s/a/b/;p}' x", "sed 10q x", "sed = x",
            "sed -n l x", "sed 's/a/b/ # comment w out' x", "sed -s -z -u --posix --debug p x",
            "sed -l 40 l x", "sed --sandbox p x", "sed", "sed -n"})
    void ordinary_scripts_pass(String line) {
        assertThat(check(ArgumentGuards.sed(), line)).as(line).isEmpty();
    }
}
