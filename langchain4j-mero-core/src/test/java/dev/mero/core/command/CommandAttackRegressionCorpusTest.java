package dev.mero.core.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.CommandDeniedException;
import dev.mero.core.InvalidInputException;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Red-team regression corpus for the command policy, beyond {@link AttackCorpusTest}: shell syntax in every
 * quoting context, wrappers behind innocently named symlinks on the search path, GNU abbreviations, option
 * smuggling for the guarded programs (GTFOBins), {@code --opt=value} and glued path arguments. Every attack is
 * refused before anything runs, and checking changes nothing on disk.
 */
class CommandAttackRegressionCorpusTest {

    @TempDir
    Path tmp;
    Workspace w;
    SecurityContext context;

    @BeforeEach
    void setUp() {
        w = new Workspace(tmp);
        w.link("lister", Path.of("/usr/bin/perl"));
        w.link("innocent", Path.of("/usr/bin/env"));
        context = w.context().commandSearchPath(w.searchPath())
                .allowCommand("ls").allowCommand("cat").allowCommand("head").allowCommand("git").allowCommand("find")
                .allowCommand("grep").allowCommand("sed").allowCommand("awk").allowCommand("tar").allowCommand("sort")
                .allowCommand("npm").allowCommand("echo").allowCommand("cp").allowCommand("diff").allowCommand("wc")
                .allowCommand("printenv").allowCommand("env").allowCommand("du").allowCommand("tail")
                .allowCommand("lister").allowCommand("xargs").allowCommand("sh -c").denyCommand("rm")
                .build();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "echo \"$(id)\"", "echo \"`id`\"", "echo $'id'", "echo a\\",
            "lister -e 'print 1'", "innocent id", "/usr/bin/perl -e 1", "ls/../../bin/sh",
            "/bin/../bin/sh -c id", "/usr/bin/ls", "find . -exe id ;", "find . -okdir id ';'",
            "find . -fls x", "find . -fprintf x y", "find -L .", "find . -follow",
            "find . -newer /etc/passwd", "git log --ou=/tmp/x", "git log --out=x", "git diff --ext",
            "git -c x=y status", "git --config-env=a=b status", "git -Cx -ccore.pager=id log", "git log --format=%H --output=x",
            "git submodule update", "git submodule foreach id", "git bisect run id", "git help log",
            "git log --help", "git grep --open-files-in-pager=id x", "git archive --output=x HEAD", "git format-patch --output-directory=x HEAD",
            "git apply --unsafe-paths x.patch", "git clone --template=x a b", "git clone -u id a b", "git clone --config=core.pager=id a b",
            "git fetch ext::sh", "git rebase -x id HEAD", "git rebase --exe=id HEAD", "git rebase -i HEAD",
            "git config --add alias.x '!id'", "git config alias.x", "git --no-pager -p log", "git --paginate log",
            "git credential fill", "git remote-ext x y", "sed --in-pl s/a/b/ notes.txt", "sed -ibak s/a/b/ notes.txt",
            "sed -n -i s/a/b/ notes.txt", "sed -e 's/a/b/w x' notes.txt", "sed -e '1e id' notes.txt", "sed -s --sandbox -e 'w x' notes.txt",
            "sed --fil=x notes.txt", "sed -z 's/a/b/;e id' notes.txt", "sed '1!G;W x' notes.txt", "sed -E 's/a/b/ew' notes.txt",
            "sed 'y/a/b/;r /etc/passwd' notes.txt", "sed --expression=1R/etc/passwd notes.txt", "awk -vx=1 'BEGIN{system(\"id\")}'", "awk 'BEGIN{print | \"id\"}'",
            "awk 'BEGIN{printf \"x\" > \"/tmp/x\"}'", "awk --exe x.awk", "awk -W exec x", "awk --source 'BEGIN{system(\"id\")}'",
            "awk -e 'BEGIN{\"id\"|getline}'", "awk 'BEGIN { s = \"sys\" \"tem\"; @s(\"id\") }'", "awk '{print $0 >> FILENAME}' notes.txt", "awk 'BEGIN{ while ((\"cat /etc/passwd\" | getline l) > 0) print l }'",
            "awk 'BEGIN{getline l < \"/etc/passwd\"; print l}'", "awk 'BEGIN{ARGV[1]=\"/etc/passwd\"} {print}' notes.txt", "tar --to-comm=id -cf x.tar .", "tar -c --checkpoint=1 --checkpoint-act=exec=id -f x.tar .",
            "tar cIf id x.tar .", "tar -cvf x.tar --use=id .", "tar --create --file x.tar --info-script=id .", "tar -cf x.tar -F id .",
            "tar -cf x.tar --new-volume-script id .", "tar -cf x.tar --rsh-command=id h:x", "tar -tf h:x.tar", "tar --get -f x.tar",
            "tar -cf x.tar --remove-files notes.txt", "tar -cf x.tar -T list.txt", "tar -chf x.tar .", "tar -cPf x.tar .",
            "tar -cMf x.tar .", "tar -cf x.tar -g snap .", "tar -cf x.tar --index-file=x .", "tar --delete -f x.tar notes.txt",
            "sort --compress-p=id notes.txt", "sort -S1 --com=id notes.txt", "sort -onotes.bak notes.txt", "sort --out=x notes.txt",
            "sort --files0=list notes.txt", "sort -T /tmp notes.txt", "npm i", "npm ci",
            "npm run x", "npm x", "npm exec -- id", "npm test",
            "npm start", "npm rebuild", "npm pack", "npm publish",
            "npm --script-shell=id ls", "npm ls --node-opt=--require=x", "npm ls --userc=x", "npm -c id ls",
            "npm config set x y", "npm audit fix", "npm --prefix x ls", "npm explore x",
            "npm edit x", "npm help x", "npm install-test", "npm it",
            "npm cit", "npm ls --global --call=id", "xargs sh -c id", "xargs -a notes.txt sh",
            "xargs env id", "xargs -I{} sh -c {}", "sh -x -c id", "cat --files0-from=/etc/passwd",
            "diff --from-file=/etc/passwd notes.txt", "diff -r . /etc", "diff --to-file=link notes.txt", "wc --files0-from=/etc/passwd",
            "cp --target-directory=/tmp notes.txt", "cp -t /tmp notes.txt", "cp notes.txt --backup=x /tmp/x", "cp -Tnotes.txt /tmp",
            "head --lines=1 -- /etc/passwd", "head /etc/../etc/passwd", "head sub/../../outside/secret.txt", "head ./link",
            "head /proc/self/environ", "head /proc/1/environ", "head /dev/stdin", "head /dev/tcp/127.0.0.1/80",
            "ls -la /", "ls -- /", "ls --hide=x /", "ls -d ~root",
            "ls \"$HOME\"", "ls ${HOME}", "ls $", "ls \"a",
            "ls 'a"})
    void every_attack_is_refused(String line) throws IOException {
        List<String> before = w.tree();

        assertThatThrownBy(() -> context.checkCommand(line, "/ws"))
                .isInstanceOfAny(CommandDeniedException.class, InvalidInputException.class)
                .satisfies(e -> assertThat(e.getMessage()).startsWith("Command "));
        assertThat(w.tree()).isEqualTo(before);
    }

    @Test
    void the_child_sees_only_the_allowed_environment() {
        CommandResult result = context.runCommand("printenv", "/ws");

        Set<String> names = Arrays.stream(result.stdout().split("\n")).filter(l -> l.contains("="))
                .map(l -> l.substring(0, l.indexOf('='))).collect(Collectors.toSet());
        assertThat(result.exitCode()).isZero();
        assertThat(names).allSatisfy(name -> assertThat(name).matches(
                "PATH|HOME|LANG|LC_ALL|TERM|TZ|PWD|GIT_[A-Z_0-9]+"));
        assertThat(result.stdout()).contains("PATH=" + w.searchPath() + "\n");
        assertThat(result.stdout()).contains("PWD=/ws\n"); // the sandbox's working directory, a virtual path
    }

}
