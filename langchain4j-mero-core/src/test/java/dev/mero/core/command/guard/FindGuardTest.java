package dev.mero.core.command.guard;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.mero.core.command.guard.GuardCalls.check;
import static org.assertj.core.api.Assertions.assertThat;

class FindGuardTest {

    @ParameterizedTest
    @ValueSource(strings = {"find . -exec sh -c id ';'", "find . -execdir id '{}' +", "find . -ok id ';'",
            "find . -okdir id ';'", "find . -name x -delete", "find . -fprint out", "find . -fprint0 out",
            "find . -fprintf out %p", "find . -fls out", "find -L . -name x", "find . -follow",
            "find -files0-from list", "find sub -type f -exec cat '{}' ';'"})
    void code_running_writing_and_link_following_actions_are_refused(String line) {
        assertThat(check(ArgumentGuards.find(), line)).isPresent();
    }

    @Test
    void messages_say_what_to_do_instead() {
        assertThat(check(ArgumentGuards.find(), "find . -exec rm '{}' ';'")).contains("the action '-exec' runs a "
                + "command for each file; run find without it and work with the names it prints");
        assertThat(check(ArgumentGuards.find(), "find . -fprint out")).contains("the action '-fprint' writes a file; "
                + "let find print to standard output instead");
        assertThat(check(ArgumentGuards.find(), "find -L .")).contains("the option '-L' makes find follow symbolic "
                + "links, which can lead outside the mounted entries; leave it out");
    }

    @ParameterizedTest
    @ValueSource(strings = {"find . -name '*.txt'", "find sub -type f -newer notes.txt -print", "find . -printf %p",
            "find . -maxdepth 2 -iname x -print0", "find -H .", "find . -name -exec.txt"})
    void ordinary_searches_pass(String line) {
        assertThat(check(ArgumentGuards.find(), line)).isEmpty();
    }

    @Test
    void other_programs_are_ignored() {
        assertThat(check(ArgumentGuards.find(), "ls -exec")).isEmpty();
    }
}
