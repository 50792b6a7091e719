package dev.mero.core.command;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Interpreter families with versions are wrappers; a long version-like name is read without recursion. */
class WrapperProgramsTest {

    @ParameterizedTest
    @ValueSource(strings = {"python", "python3", "python3.11", "perl5.36.1", "luajit", "lua5.4", "node18", "pwsh",
        "sh", "env"})
    void interpretersWithOrWithoutAVersionAreWrappers(String name) {
        assertThat(WrapperPrograms.isWrapper(name)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"pythonx", "python3.", "python.", "python3..1", "python3.1a", "ls", "javac", "luajitx",
        "python\u0663", "Python3", ""})
    void otherNamesAreNot(String name) {
        assertThat(WrapperPrograms.isWrapper(name)).isFalse();
    }

    @Test
    void aVersionAsLongAsACommandLineNeitherRecursesNorMisleads() {
        String dots = ".1".repeat(CommandLineParser.MAX_LENGTH / 2);
        assertThat(WrapperPrograms.isWrapper("python" + dots)).isTrue();
        assertThat(WrapperPrograms.isWrapper("python" + dots + "x")).isFalse();
    }
}
