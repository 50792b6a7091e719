package dev.mero.core.command;

import dev.mero.core.Permission;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The permissions a command's path arguments need: what it only reads, what it writes, what it removes. */
class ModifyingProgramsTest {

    private static Set<Permission> needed(String line) {
        List<String> argv = CommandLineParser.parse(line);
        return ModifyingPrograms.pathPermissions(Set.of(argv.get(0)), argv);
    }

    @ParameterizedTest
    @ValueSource(strings = {"tar -tf a.tar", "tar tvf a.tar", "tar -t -f xcru.tar", "tar --list --file=a.tar",
            "tar -tf a.tar -- -c", "tar -tf a.tar --a", "tar --to-stdout -tf a.tar", "cat a", "git status"})
    void readingCommandsNeedRead(String line) {
        assertThat(needed(line)).as(line).containsExactly(Permission.READ);
    }

    @ParameterizedTest
    @ValueSource(strings = {"tar -cf a.tar x", "tar cf a.tar x", "tar -xf a.tar", "tar xf a.tar", "tar -rf a.tar x",
            "tar -uf a.tar x", "tar -Af a.tar b.tar", "tar -tvf a.tar -c", "tar --create -f a.tar x",
            "tar --cr -f a.tar x", "tar --ap -f a.tar x", "tar --extract=x -f a.tar", "tar --file=a.tar --get",
            "tar --delete -f a.tar x", "tee x", "git commit -m x"})
    void writingCommandsNeedWrite(String line) {
        assertThat(needed(line)).as(line).containsExactly(Permission.READ, Permission.WRITE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"git rm x", "git stash"})
    void gitCommandsThatRemoveFilesNeedWriteAndDelete(String line) {
        assertThat(needed(line)).as(line).containsExactly(Permission.READ, Permission.WRITE, Permission.DELETE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"rm x", "rmdir d", "unlink x"})
    void removingCommandsNeedDelete(String line) {
        assertThat(needed(line)).as(line).contains(Permission.DELETE);
    }
}
