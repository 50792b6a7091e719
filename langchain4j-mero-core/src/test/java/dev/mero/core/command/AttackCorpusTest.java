package dev.mero.core.command;

import dev.mero.core.Permission;

import dev.mero.core.MeroToolsException;
import dev.mero.core.SecurityContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Command-injection and allowlist-bypass attempts against a broad, realistic allowlist: every one is refused
 * before anything could run, and checking leaves the file system as it was.
 */
class AttackCorpusTest {

    @TempDir
    Path tmp;
    Workspace w;
    SecurityContext context;

    @BeforeEach
    void setUp() {
        w = new Workspace(tmp);
        w.stub("rg");
        context = w.context(Permission.READ, Permission.WRITE, Permission.EXECUTE, Permission.DELETE)
                .commandSearchPath(w.searchPath())
                .allowCommand("ls").allowCommand("cat").allowCommand("head").allowCommand("wc").allowCommand("git")
                .allowCommand("find").allowCommand("grep").allowCommand("rg").allowCommand("sed").allowCommand("awk")
                .allowCommand("tar").allowCommand("sort").allowCommand("npm").allowCommand("npx").allowCommand("echo")
                .allowCommand("rm").allowCommand("cp").allowCommand("dd").allowCommand("diff")
                .denyCommand("rm -rf").denyCommand("git push").build();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            // shell syntax
            "ls; id", "ls && id", "ls || id", "ls | sh", "ls & id", "ls `id`", "ls $(id)", "ls \"$(id)\"",
            "ls ${IFS}", "ls $HOME", "echo x > /tmp/pwned", "echo x >> notes.txt", "cat < /etc/passwd",
            "cat <<EOF", "ls\nid", "ls\rid", "(id)", "{ id; }", "ls *", "cat /etc/pass??", "cat /etc/[p]asswd",
            "cat ~/.bashrc", "PATH=/tmp ls", "LD_PRELOAD=/tmp/x.so ls", "ls #comment", "ls\u200b", "l\u202es",
            "ls\u00a0-la", "echo $'\\x2fetc'", "diff <(id) x",
            // programs
            "./ls", "sub/ls", "../bin/ls", "/tmp/ls", "/bin/sh -c id", "/usr/bin/env id", "bash -c id", "sh -c id",
            "env ls", "xargs ls", "timeout 1 ls", "nice ls", "nohup ls", "sudo ls", "su -c id", "busybox ls",
            "python3 -c 'import os'", "perl -e 'exec q(id)'", "node -e 1", "watch ls", "strace ls", "script -c id",
            "ssh localhost id", "command ls", "exec ls", "eval ls", "time ls", "stdbuf -o0 ls", "chroot / ls",
            // deny rules
            "rm -rf sub", "rm -fr sub", "rm -r -f sub", "rm -Rf sub", "rm --recursive --force sub",
            "git push origin main", "git -C sub push", "/usr/bin/git push",
            // guards
            "find . -exec id ';'", "find . -execdir id ';'", "find . -delete", "find . -fprint /tmp/x",
            "git -c core.pager=id log", "git -c core.sshCommand=id fetch", "git --exec-path=/tmp status",
            "git config core.pager id", "git log --ext-diff", "git grep -O id x", "git difftool",
            "git ls-remote --upload-pack=id .", "git clone ext::id x", "git log --output=/tmp/x",
            "git format-patch -o /tmp/x HEAD", "git rebase --exec id HEAD", "git archive -o x.tar HEAD",
            "rg --pre id x", "rg -z x", "rg --pre=id x", "grep -R x .", "sed -i s/a/b/ notes.txt",
            "sed 's/a/id/e' notes.txt", "sed 'w /tmp/x' notes.txt", "sed 'e id' notes.txt",
            "sed -n '1r /etc/passwd' notes.txt", "awk 'BEGIN{system(\"id\")}'", "awk '{print > \"/tmp/x\"}' notes.txt",
            "awk 'BEGIN{\"id\" | getline}'", "awk -f x.awk", "tar -xf x.tar", "tar xf x.tar",
            "tar -cf x.tar --to-command=id .", "tar -cf x.tar --checkpoint-action=exec=id .", "tar -cIid -f x.tar .",
            "tar -cf x.tar --use-compress-prog=id .", "tar -cf host:x.tar .", "sort --compress-program=id notes.txt",
            "sort --compress-prog=id notes.txt", "sort -o /tmp/x notes.txt", "sort -o out notes.txt",
            "npm install", "npm run build", "npm exec id", "npx cowsay", "npm ls --script-shell=id",
            // paths
            "cat /etc/passwd", "cat ../outside/secret.txt", "cat link", "cat dirlink/../secret.txt", "cat /ws/link",
            "head -n1 /etc/shadow", "cp notes.txt /tmp/x", "cp /etc/passwd sub", "dd if=/etc/passwd of=x",
            "dd if=notes.txt of=/tmp/x", "grep -f/etc/passwd x", "grep --file=/etc/passwd x", "ls /",
            "find / -name x", "git -C / status", "git --git-dir=/tmp/.git log", "diff /etc/passwd notes.txt",
            "tar -cf /tmp/x.tar .", "cat dangling"})
    void every_attack_is_refused(String line) {
        assertThatThrownBy(() -> context.checkCommand(line, "/ws"))
                .isInstanceOf(MeroToolsException.class)
                .satisfies(e -> assertThat(e.getMessage()).isNotBlank().doesNotContain("Exception"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"ls -la", "cat notes.txt", "head -n 3 notes.txt", "wc -l notes.txt sub/../notes.txt",
            "git status", "git log --oneline -5", "git diff --stat", "find . -name '*.txt'", "grep -rn todo .",
            "rg -n todo", "sed -n '1,5p' notes.txt", "sed 's/a/b/g' notes.txt", "awk '{print $1}' notes.txt",
            "tar -czf out.tgz sub", "tar -tf out.tgz", "sort -u notes.txt", "npm ls", "echo 'a; b | c'",
            "rm -r sub", "cp notes.txt copy.txt", "dd if=notes.txt count=1", "diff notes.txt secret.txt"})
    void ordinary_commands_pass(String line) {
        assertThat(context.checkCommand(line, "/ws").commandLine()).isEqualTo(line);
    }

    @Test
    void checking_commands_never_touches_the_file_system() throws IOException {
        List<String> before = w.tree();
        for (String line : new String[] {"echo x > /tmp/pwned", "sort -o out notes.txt", "tar -xf x.tar",
                                         "cat missing/dir/file", "ls sub", "git status"}) {
            try {
                context.checkCommand(line, "/ws");
            } catch (MeroToolsException e) {
                // refused, as expected for most
            }
        }
        assertThat(w.tree()).isEqualTo(before);
    }

}
