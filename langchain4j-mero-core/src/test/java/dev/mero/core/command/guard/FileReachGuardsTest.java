package dev.mero.core.command.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.core.command.CommandLineParser;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The built-in guards for link-following and file-list options, {@code ps}'s environment flag and git's
 * remotes, applied as the policy applies them: every built-in guard on the whole command line.
 */
class FileReachGuardsTest {

    /** The first refusal any built-in guard gives. */
    private static Optional<String> check(String line) {
        List<String> argv = CommandLineParser.parse(line);
        for (ArgumentGuard guard : ArgumentGuards.builtIns()) {
            Optional<String> refusal = guard.check(argv.get(0), argv.subList(1, argv.size()));
            if (refusal.isPresent()) {
                return refusal;
            }
        }
        return Optional.empty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"cp -L a b", "cp -rL a b", "cp -aL a b", "cp --dereference a b", "cp --deref a b",
        "cp -r a b -L", "ls -L", "ls -lLR x", "ls --dereference x", "ls --hyperlink=always", "ls --hyper x",
        "du -L x", "du -sL x", "du --dereference x", "du --files0-from=l", "du --files0-from l", "du --files0 l",
        "wc --files0-from=l", "wc --files0-from l", "wc --files0=l", "wc --f=l", "chown -RL 0 x", "chgrp -L 0 x",
        "tree -l x", "file -f l", "file -fl", "file --files-from l", "md5sum -c l", "sha256sum --check l",
        "sha512sum -wc l", "b2sum --che l", "cksum --check l", "rsync -L a b", "rsync -avL a b", "rsync -k a b",
        "rsync -K a b", "rsync --copy-links a b", "rsync --copy-unsafe-links a b", "rsync --keep-dirlinks a b",
        "rsync --files-from=l . b", "rsync -e ssh a b", "rsync --rsh=ssh a b", "rsync --rsync-path=x a b",
        "rsync -f 'merge /x' a b", "rsync --filter=x a b", "rsync --daemon", "rsync a host:b", "rsync host:a b",
        "rsync a rsync://host/m", "rsync a host::module", "ps e", "ps eww", "ps axe", "ps auxe", "ps ep 1",
        "ps -p 1 e", "ps -o pid e", "ps --pid 1 e", "ps opid,euser", "ps -e e", "ps -Cbash e",
        "git init --separate-git-dir=g r", "git init --separate-git-dir g r", "git clone --separate x y",
        "git add --pathspec-from-file=l", "git commit --pathspec-from-file l", "git clone --recurse-submodules x y",
        "git clone --recursive x y", "git fetch --recurse-submodules", "git pull --recurse-submodules=yes",
        "git clone ssh://h/x", "git clone h:x", "git clone u@h:x y", "git clone -b main h:x y",
        "git fetch h:x", "git fetch --depth 1 h:x", "git pull h:x main", "git push h:x main",
        "git push --repo=h:x", "git push --repo h:x", "git ls-remote h:x", "git ls-remote git+ssh://h/x",
        "git ls-remote ssh+git://h/x", "git ls-remote x::y", "git remote add o h:x", "git remote set-url o h:x",
        "git archive --remote=h:x HEAD", "git archive --remote h:x HEAD", "git fetch -- h:x",
        "git push --repo=ssh://h/x", "git archive --remote ssh://h/x HEAD", "git fetch -- ssh://h/x", "zip -r a.zip t",
        "zip -rq a.zip t", "zip -R a.zip x", "zip --recurse-paths a.zip t", "zip -9r a.zip t",
        "zip -T -TT 'sh -c id' a.zip f", "zip --unzip-command=x a.zip f", "unzip a.zip", "unzip -o a.zip",
        "7z -y x a.7z", "7z -bd e a.7z",
        "unzip a.zip -d out", "7z x a.7z", "7za e a.7z", "ar x lib.a", "ar xv lib.a", "cpio -i", "cpio -idv",
        "cpio --extract", "cpio -p dir", "patch -i p.diff", "patch -p1 -i p.diff", "patch -p1", "patch",
        "7z a x.7z dir", "shasum -c sums", "curl -K cfg", "curl --config cfg", "curl --conf=cfg",
        "wget -i urls", "wget --input-file=urls", "wget -e 'robots=off'", "wget --config=rc"})
    void optionsThatReachUncheckedFilesOrHostsAreRefused(String line) {
        assertThat(check(line)).as(line).isPresent();
    }

    @ParameterizedTest
    @ValueSource(strings = {"cp -r a b", "cp -a a b", "cp -H a b", "cp -P a b", "cp --no-dereference a b",
        "cp -t dir a", "ls -la", "ls -R x", "ls -H x", "ls --dereference-command-line x", "ls -I L x",
        "du -sh x", "du -X patterns x", "du --exclude-from=p x", "du -d 1 x", "wc -l x", "wc -L x", "wc --total=never x",
        "chown 0 x", "chown -R 0 x", "tree -L 2 x", "file x", "file -L x", "md5sum x", "sha256sum -b x",
        "rsync -a a b", "rsync -av --delete a/ b/", "rsync --exclude=x -r a b", "rsync --exclude-from=p -r a b",
        "ps", "ps aux", "ps -ef", "ps -e -o pid,etime", "ps -o pid,euser,etime -p 1", "ps -p 1 -o args",
        "ps --format etime -e", "ps axo pid,etime", "ps -eo pid,comm", "ps -C sed", "ps O user", "git init", "git init -q repo",
        "git clone https://example.invalid/x.git", "git clone ../repo copy", "git clone file:///srv/x copy",
        "git fetch origin", "git fetch", "git fetch --", "git push --repo", "git pull origin main", "git push origin main:main",
        "git push origin +refs/heads/a:refs/heads/b", "git fetch --no-recurse-submodules",
        "git pull --recurse-submodules=no", "git show HEAD:a/b", "git checkout --recurse-submodules main",
        "git remote -v", "git remote add origin https://example.invalid/x.git", "git log -C", "git add -A",
        "zip -ry a.zip t", "zip -r -y a.zip t", "zip --symlinks -r a.zip t", "zip a.zip f", "zip -T a.zip f",
        "unzip -l a.zip", "unzip -t a.zip", "unzip -p a.zip f", "unzip -Z a.zip", "7z l a.7z", "ar t lib.a",
        "cpio -t", "patch -i p.diff f.txt", "patch f.txt p.diff", "patch -p1 -i p.diff f.txt", "patch -i p.diff -- -f.txt", "7z a -snl x.7z dir",
        "shasum -a 256 f", "curl -s https://example.invalid", "curl -o out https://example.invalid",
        "curl -d x=1 https://example.invalid", "wget -q -O out https://example.invalid"})
    void ordinaryUsesPass(String line) {
        assertThat(check(line)).as(line).isEmpty();
    }

    @Test
    void eachProgramTheTablesNameHasItsGuard() {
        assertThat(ArgumentGuards.ps().check("ps", List.of("e"))).isPresent();
        assertThat(List.of("unzip a.zip", "7z x a.7z", "7za x a.7z", "7zr x a.7z", "ar x lib.a", "cpio -i", "patch"))
                .allSatisfy(line -> assertThat(anyRefuses(ExtractGuard.all(), line)).as(line).isTrue());
        assertThat(List.of("cp -L a b", "ls -L", "du -L x", "chown -L 0 x", "chgrp -L 0 x", "tree -l x", "wc --files0-from=l",
                "file -f l", "md5sum -c l", "sha256sum -c l", "b2sum -c l", "cksum --check l", "rsync -L a b"))
                .allSatisfy(line -> assertThat(anyRefuses(FileReachGuard.all(), line)).as(line).isTrue());
    }

    private static boolean anyRefuses(List<ArgumentGuard> guards, String line) {
        List<String> argv = CommandLineParser.parse(line);
        return guards.stream().anyMatch(guard -> guard.check(argv.get(0), argv.subList(1, argv.size())).isPresent());
    }

    @Test
    void messagesSayWhatToDoInstead() {
        assertThat(check("cp -rL a b")).contains("the option '-L' follows the symbolic links it finds, which can "
                + "lead outside the mounted entries; leave it out (links named as arguments are followed and checked "
                + "anyway)");
        assertThat(check("wc --files0-from=list")).contains("the option '--files0-from' reads the names of the files "
                + "to work on from a file, whose contents the policy cannot check; name the files as arguments "
                + "instead");
        assertThat(check("ps eww -p 1")).contains("the BSD-style option 'e' in 'eww' prints the environment of the "
                + "processes shown, secrets included; leave it out (choose columns with -o)");
        assertThat(check("git clone h:x")).contains("the repository 'h:x' is reached through ssh, a program git "
                + "would start; use a path inside the mounted entries or an https URL");
    }
}
