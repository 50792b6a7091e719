package dev.mero.core.command;

import dev.mero.core.command.DirectoryOptions.Directory;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The directories a command changes into through its options, in every spelling, with where each was written. */
class DirectoryOptionsTest {

    private static List<Directory> of(String line) {
        List<String> argv = CommandLineParser.parse(line);
        return DirectoryOptions.of(Set.of(argv.get(0)), argv);
    }

    @Test
    void oldStyleTarLettersTakeTheirValuesInOrder() {
        assertThat(of("tar cCf dir a.tar x")).containsExactly(new Directory("dir", 2));
        assertThat(of("tar cbCf 20 dir a.tar x")).containsExactly(new Directory("dir", 3));
        assertThat(of("tar cfC a.tar dir x -C sub")).containsExactly(new Directory("dir", 3), new Directory("sub", 6));
        assertThat(of("tar cC")).isEmpty();
        assertThat(of("tar")).isEmpty();
    }

    @Test
    void shortOptionsTakeAGluedValueOrTheNextArgument() {
        assertThat(of("make -C dir all")).containsExactly(new Directory("dir", 2));
        assertThat(of("make -sCdir all")).containsExactly(new Directory("dir", -1));
        assertThat(of("git -C a -C b status")).containsExactly(new Directory("a", 2), new Directory("b", 4));
        assertThat(of("make -C")).isEmpty();
        assertThat(of("make - -k")).isEmpty();
    }

    @Test
    void longOptionsMayBeAbbreviatedAndTakeAValueAfterEqualsOrTheNextArgument() {
        assertThat(of("tar --directory=dir -cf a.tar x")).containsExactly(new Directory("dir", 1));
        assertThat(of("tar --dir dir -cf a.tar x")).containsExactly(new Directory("dir", 2));
        assertThat(of("env --chdir=/ ls")).containsExactly(new Directory("/", 1));
        assertThat(of("tar -cf a.tar --verbose x")).isEmpty();
        assertThat(of("tar -cf a.tar --directory")).isEmpty();
        assertThat(of("tar -cf a.tar --=x y")).isEmpty();
    }

    @Test
    void nothingAfterTheEndOfOptionsIsADirectory() {
        assertThat(of("make -- -C dir")).isEmpty();
        assertThat(of("cat -C dir")).isEmpty();
    }
}
