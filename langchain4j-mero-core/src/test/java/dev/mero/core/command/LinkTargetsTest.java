package dev.mero.core.command;

import dev.mero.core.command.LinkTargets.Target;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Which link targets {@code ln -s} writes, and every directory each may be read from. */
class LinkTargetsTest {

    private static List<Target> ln(String line) {
        return LinkTargets.of(Set.of("ln"), CommandLineParser.parse(line));
    }

    private static Target target(String target, String... directories) {
        return new Target(target, List.of(directories));
    }

    @Test
    void onlySymbolicLinksHaveTargets() {
        assertThat(LinkTargets.of(Set.of("cp"), CommandLineParser.parse("cp -s ../a b"))).isEmpty();
        assertThat(ln("ln ../a b")).isEmpty();
        assertThat(ln("ln --sy ../a b")).containsExactly(target("../a", "b", "."));
        assertThat(ln("ln -fs ../a b")).containsExactly(target("../a", "b", "."));
    }

    @Test
    void aTargetIsReadFromTheLastOperandAndItsParent() {
        assertThat(ln("ln -s ../O ../../planted")).containsExactly(target("../O", "../../planted", "../.."));
        assertThat(ln("ln -s a b dir")).containsExactly(target("a", "dir", "."), target("b", "dir", "."));
        assertThat(ln("ln -s a x/y/")).containsExactly(target("a", "x/y/", "x"));
        assertThat(ln("ln -s a dir//")).containsExactly(target("a", "dir//", "."));
        assertThat(ln("ln -s a /l")).containsExactly(target("a", "/l", "/"));
        assertThat(ln("ln -s a /")).containsExactly(target("a", "/", "/"));
        assertThat(ln("ln -s a //")).containsExactly(target("a", "//", "/"));
    }

    @Test
    void withOneOperandTheLinkIsMadeInTheWorkingDirectory() {
        assertThat(ln("ln -s ../O")).containsExactly(target("../O", "."));
        assertThat(ln("ln -s -- -O")).containsExactly(target("-O", "."));
        // a directory option without its value names no directory
        assertThat(ln("ln -s ../O -t")).containsExactly(target("../O", "."));
        assertThat(ln("ln -s ../O --target-directory")).containsExactly(target("../O", "."));
    }

    @Test
    void absoluteAndEmptyTargetsAreLeftToThePathCheck() {
        assertThat(ln("ln -s /etc/passwd ''")).isEmpty();
        assertThat(ln("ln -s '' x")).isEmpty();
    }

    @Test
    void theTargetDirectoryIsFoundInEverySpelling() {
        for (String line : List.of("ln -s -t ../.. ../O", "ln -st ../.. ../O", "ln -s -t../.. ../O",
                "ln -s --target-directory=../.. ../O", "ln -s --target-directory ../.. ../O", "ln -s --ta ../.. ../O",
                "ln -s --t ../.. ../O", "ln -s --t=../.. ../O")) {
            assertThat(ln(line)).as(line).containsExactly(target("../O", "../.."));
        }
    }

    @Test
    void theValueOfASuffixIsNoOperand() {
        assertThat(ln("ln -s --suffix .bak ../O x")).containsExactly(target("../O", "x", "."));
        assertThat(ln("ln -s --su .bak ../O x")).containsExactly(target("../O", "x", "."));
        assertThat(ln("ln -s -S .bak ../O x")).containsExactly(target("../O", "x", "."));
        assertThat(ln("ln -sS.bak ../O x")).containsExactly(target("../O", "x", "."));
    }
}
