package dev.mero.core.command.guard;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.mero.core.command.guard.GuardCalls.check;
import static org.assertj.core.api.Assertions.assertThat;

class SortGuardTest {

    @ParameterizedTest
    @ValueSource(strings = {"sort --compress-program=id x", "sort --compress-prog=id x", "sort --compress-prog id x",
            "sort --com=id x", "sort --co id x", "sort --c=id x", "sort -o out x", "sort -oout x", "sort -uo out x",
            "sort --output=out x", "sort --out out x", "sort --o=out x", "sort x -o out", "sort --files0-from=list",
            "sort --files0=list", "sort -S 1M --compress-program id -T . x"})
    void compressors_output_files_and_file_lists_are_refused(String line) {
        assertThat(check(ArgumentGuards.sort(), line)).as(line).isPresent();
    }

    @Test
    void messages_name_the_option_as_written() {
        assertThat(check(ArgumentGuards.sort(), "sort --compress-prog=gzip x")).contains("the option "
                + "'--compress-prog' makes sort run a compression program; leave it out");
        assertThat(check(ArgumentGuards.sort(), "sort -uo out x")).contains("the option '-o' writes a file; let sort "
                + "print to standard output instead");
    }

    @ParameterizedTest
    @ValueSource(strings = {"sort x", "sort -u -n x", "sort -k2,2 -t, x", "sort -ko x", "sort -t o x",
            "sort --check x", "sort --key=2 x", "sort -- -o", "sort -r --stable x"})
    void ordinary_sorts_pass(String line) {
        assertThat(check(ArgumentGuards.sort(), line)).as(line).isEmpty();
    }
}
