package dev.mero.core.command.guard;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.mero.core.command.guard.GuardCalls.check;
import static org.assertj.core.api.Assertions.assertThat;

class GitGuardTest {

    @ParameterizedTest
    @ValueSource(strings = {
            "git -c core.pager=id log", "git -c alias.x='!id' x", "git -ccore.sshCommand=id fetch",
            "git --config-env=core.pager=EVIL log", "git --config-env core.pager=EVIL log",
            "git -C sub -c core.fsmonitor=id status", "git --no-pager -c x=y status",
            "git --exec-path=/tmp/evil status", "git --git-dir=evil diff", "git --git-dir evil log",
            "git --work-tree=. --git-dir=evil status", "git --bare log", "git -p help config", "git --paginate log",
            "git config core.pager id", "git config --add alias.x '!id'", "git config --unset x",
            "git config --edit", "git config -e", "git config set core.pager id", "git config --global x y",
            "git config --get x --add y", "git config",
            "git difftool", "git mergetool", "git filter-branch --tree-filter id", "git instaweb", "git daemon",
            "git send-email x", "git hook run pre-commit", "git credential fill", "git credential-store get",
            "git remote-ext x y", "git upload-pack .", "git receive-pack .", "git shell -c id",
            "git submodule foreach id", "git submodule update --init", "git bisect run id",
            "git maintenance start",
            "git help log", "git help -w log", "git log --help", "git --help log",
            "git fetch --upload-pack=id origin", "git fetch --upload-pack id origin", "git fetch --upload-p=id x",
            "git ls-remote -u id .", "git ls-remote --upload-pack=id .", "git clone -u id src dst",
            "git clone -uid src dst", "git push --receive-pack=id origin", "git push --exec=id origin",
            "git archive --remote=. --exec=id HEAD", "git archive --exe=id HEAD",
            "git clone 'ext::sh -c id' dst", "git fetch 'fd::3' main", "git ls-remote ext::id",
            "git clone --template=tpl src dst", "git init --templ=tpl", "git clone -c core.fsmonitor=id src dst",
            "git clone --config core.fsmonitor=id src dst", "git clone --conf=x=y src dst",
            "git diff --ext-diff", "git log -p --ext-d", "git diff --textconv", "git log --textc",
            "git grep -O x", "git grep -Oid x", "git grep --open-files-in-pager=id x", "git grep --open x",
            "git rebase -x id main", "git rebase --exec id main", "git rebase -i main", "git rebase --interactive",
            "git rebase -ix id main",
            "git log --output=out", "git diff --outp=out", "git format-patch -o out HEAD~1",
            "git format-patch --output-directory out HEAD~1", "git archive -o out.tar HEAD",
            "git archive --output=out.tar HEAD", "git apply --unsafe-paths x.patch"})
    void code_running_and_file_writing_forms_are_refused(String line) {
        assertThat(check(ArgumentGuards.git(), line)).as(line).isPresent();
    }

    @ParameterizedTest
    @ValueSource(strings = {"git status", "git status --short", "git log --oneline -5", "git -C sub log",
            "git --no-pager log", "git --exec-path", "git diff --text", "git diff --stat",
            "git diff --no-ext-diff --no-textconv", "git log --exclude=x --all", "git grep -n x", "git grep -o x",
            "git ls-files -o", "git commit -m msg", "git commit -c HEAD", "git add -u", "git push -u origin main",
            "git config --get user.name", "git config --global --get user.name", "git config --list",
            "git config -l --show-origin", "git config get user.name", "git config --get-regexp alias",
            "git config --type=bool --get x", "git submodule status", "git submodule", "git bisect start",
            "git maintenance run", "git help", "git help -a", "git --help", "git log -h", "git rebase main",
            "git format-patch --stdout HEAD~1", "git archive HEAD", "git log -- --output=x", "git show HEAD:x",
            "git clone src dst", "git fetch origin", "git log --output-indicator-new=+", "git"})
    void ordinary_git_passes(String line) {
        assertThat(check(ArgumentGuards.git(), line)).as(line).isEmpty();
    }

    @Test
    void messages_explain_the_refusal() {
        assertThat(check(ArgumentGuards.git(), "git -c core.pager=id log")).contains("the option '-c' sets "
                + "configuration, which can name programs for git to run (core.pager, core.sshCommand, core.fsmonitor, "
                + "alias.*); leave it out");
        assertThat(check(ArgumentGuards.git(), "git log --ext-d")).contains("the option '--ext-d' makes git run "
                + "another program; leave it out");
        assertThat(check(ArgumentGuards.git(), "git log --output=x")).contains("the option '--output' writes a file; "
                + "let git print to standard output instead");
        assertThat(check(ArgumentGuards.git(), "git config core.pager id")).contains("only reading configuration is "
                + "available ('git config --get <name>', 'git config --list'), because configuration can name "
                + "programs for git to run");
    }
}
