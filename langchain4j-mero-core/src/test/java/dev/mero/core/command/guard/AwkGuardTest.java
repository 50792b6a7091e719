package dev.mero.core.command.guard;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.mero.core.command.guard.GuardCalls.check;
import static org.assertj.core.api.Assertions.assertThat;

class AwkGuardTest {

    @ParameterizedTest
    @ValueSource(strings = {"awk 'BEGIN{system(\"id\")}'", "awk '{ system (\"id\") }' x", "gawk 'BEGIN{system(\"id\")}'",
            "mawk 'BEGIN{system(\"id\")}'", "awk '{print | \"sh\"}' x", "awk 'BEGIN{\"id\" | getline x}'",
            "awk '{print |& \"sh\"}' x", "awk '{print > \"out\"}' x", "awk '{print >> \"out\"}' x",
            "awk '{printf \"%s\", $0 > \"out\"}' x", "awk 'BEGIN{getline l < \"/etc/passwd\"; print l}'",
            "awk 'BEGIN{while ((getline line < \"f\") > 0) n++}'", "gawk '@load \"filefuncs\"'",
            "gawk 'BEGIN{f=\"sys\" \"tem\"; @f(\"id\")}'", "awk 'BEGIN{ARGV[1]=\"/etc/passwd\"; ARGC=2}{print}'",
            "awk -f prog.awk x", "awk -fprog.awk x", "awk --file=prog.awk x", "gawk -E prog.awk",
            "gawk --exec prog.awk", "gawk -i lib", "gawk --include lib 1", "gawk -l filefuncs 1",
            "gawk --load=filefuncs 1", "gawk -o 1 x", "gawk -oout 1 x", "gawk --pretty-print=out 1 x",
            "gawk -p 1 x", "gawk --profile=out 1 x", "gawk -d 1 x", "gawk --dump-variables=out 1 x", "gawk -D 1",
            "gawk --debug 1", "mawk -W exec prog.awk", "mawk -Wexec prog.awk", "awk -e 'BEGIN{system(\"id\")}'",
            "gawk --source='BEGIN{system(\"id\")}'", "awk -v x=1 'BEGIN{system(\"id\")}'",
            "awk -F: 'BEGIN{system(\"id\")}' x", "awk -- 'BEGIN{system(\"id\")}' x", "awk --pro=out 1",
            "awk '{print $1} |' x", "awk 'print > \"out\"' x"})
    void programs_and_options_that_run_write_or_read_are_refused(String line) {
        assertThat(check(ArgumentGuards.awk(), line)).as(line).isPresent();
    }

    @Test
    void messages() {
        assertThat(check(ArgumentGuards.awk(), "awk 'BEGIN{system(\"id\")}'")).contains("the awk program "
                + "'BEGIN{system(\"id\")}' calls system(), which runs a shell command");
        assertThat(check(ArgumentGuards.awk(), "awk -f prog.awk x")).contains("the option '-f' makes awk read a "
                + "program file, load code, write a file or change how it runs; give the program inline and let awk "
                + "print to standard output");
    }

    @ParameterizedTest
    @ValueSource(strings = {"awk '{print $1}' x", "awk -F: '{print $1, $3}' x", "awk '$3 > 100' x",
            "awk 'NR>1{print}' x", "awk '{s+=$2} END{print s}' x", "awk -v n=3 'NR<=n' x",
            "awk '/a/ || /b/ {print}' x", "awk '{if ($1 == \"x\" && $2 != \"y\") print}' x",
            "awk 'BEGIN{printf \"%d\\n\", 1+2}'", "awk '{print length($0)}' x", "awk -e '{print}' x",
            "awk '{ n = split($0, a, \",\"); print n }' x", "awk 1 x", "awk"})
    void ordinary_programs_pass(String line) {
        assertThat(check(ArgumentGuards.awk(), line)).as(line).isEmpty();
    }
}
