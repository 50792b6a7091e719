package dev.mero.core.command.guard;

import java.util.ArrayList;
import java.util.List;

/**
 * The built-in {@link ArgumentGuard argument guards}, on by default in every
 * {@link dev.mero.core.command.CommandPolicy}: they refuse the options of commonly allowlisted programs that
 * run code, write or delete files, or read files the policy cannot check, in every spelling the program
 * accepts (grouped short options, glued values, {@code --opt=value}, GNU long-option abbreviations such as
 * {@code --compress-prog} for {@code --compress-program}, tar's old-style {@code xvf}).
 *
 * <table>
 *   <caption>What each guard refuses</caption>
 *   <tr><th>program</th><th>refused</th></tr>
 *   <tr><td>find</td><td>-exec, -execdir, -ok, -okdir, -delete, -fprint, -fprint0, -fprintf, -fls, -L,
 *       -follow, -files0-from</td></tr>
 *   <tr><td>git</td><td>-c, --config-env, --exec-path=, -p/--paginate; difftool, mergetool, filter-branch,
 *       hook, daemon, ...;
 *       config other than reading; --upload-pack, --receive-pack, --exec, --ext-diff, --textconv,
 *       --output, --template, grep -O, rebase -x/-i, clone -u/-c, format-patch/archive -o, ext:: URLs,
 *       help/--help, --separate-git-dir, --pathspec-from-file, --recurse-submodules/--recursive when cloning or
 *       fetching, repositories reached through ssh ({@code ssh://}, {@code host:path}) or a remote helper
 *       ({@code x::})</td></tr>
 *   <tr><td>rg</td><td>--pre, --pre-glob, -z/--search-zip, --hostname-bin, -L/--follow</td></tr>
 *   <tr><td>grep</td><td>-R/--dereference-recursive</td></tr>
 *   <tr><td>sed</td><td>-i/--in-place, -f/--file, unknown options; scripts with e, w, W, r, R, s///e,
 *       s///w</td></tr>
 *   <tr><td>awk, gawk, mawk</td><td>-f, -E, -i, -l, -d, -o, -p, -D, -W and their long forms; programs with
 *       system(), |, &gt; after print, getline &lt;, @, ARGV</td></tr>
 *   <tr><td>tar</td><td>-x/--extract/--get, --to-command, --checkpoint-action, -I/--use-compress-program,
 *       -F/--info-script, --new-volume-script, --rsh-command, --rmt-command, --index-file, --volno-file,
 *       -g, --remove-files, --delete, -T/--files-from, -h/--dereference, -P, -M, host:file archives</td></tr>
 *   <tr><td>sort</td><td>--compress-program, -o/--output, --files0-from</td></tr>
 *   <tr><td>npm</td><td>every subcommand but read-only ones; --script-shell, --node-options, -c/--call,
 *       --shell, --editor, --userconfig, ...</td></tr>
 *   <tr><td>npx</td><td>everything</td></tr>
 *   <tr><td>unzip, 7z, ar, cpio, patch</td><td>extraction (unzip without -l/-t/-p, 7z x/e, ar x, cpio -i/-p),
 *       patch without the file to patch: names taken from inside the input</td></tr>
 *   <tr><td>curl, wget</td><td>curl -K/--config; wget -i/--input-file, -e/--execute, --config</td></tr>
 *   <tr><td>zip</td><td>-r/-R/--recurse-* without -y/--symlinks, -TT/--unzip-command</td></tr>
 *   <tr><td>ps</td><td>the BSD-style {@code e} flag (prints every shown process's environment)</td></tr>
 *   <tr><td>cp, ls, du, chown, chgrp, tree</td><td>-L/--dereference (tree: -l): following the links inside a
 *       directory; ls --hyperlink</td></tr>
 *   <tr><td>wc, du, file, md5sum, sha*sum, b2sum, cksum</td><td>--files0-from, file -f/--files-from,
 *       -c/--check: names of files read from a file</td></tr>
 *   <tr><td>rsync</td><td>-L, --copy-links, --copy-unsafe-links, -k, -K, --files-from, -f/--filter,
 *       -e/--rsh, --rsync-path, --daemon, --config, remote operands</td></tr>
 * </table>
 *
 * <p>{@code xargs} needs no guard: it runs other programs, so it is a wrapper that only an explicit rule
 * allows. Add guards for other programs with
 * {@link dev.mero.core.command.CommandPolicy.Builder#guard(ArgumentGuard)}.
 */
public final class ArgumentGuards {

    private static final List<ArgumentGuard> BUILT_INS = builtInList();

    private ArgumentGuards() {
    }

    private static List<ArgumentGuard> builtInList() {
        List<ArgumentGuard> guards = new ArrayList<>(List.of(new FindGuard(), new GitGuard(), new RipgrepGuard(),
                new GrepGuard(), new SedGuard(), new AwkGuard(), new TarGuard(), new SortGuard(), new NpmGuard(),
                new NpxGuard(), new PsGuard(), new ZipGuard()));
        guards.addAll(FileReachGuard.all());
        guards.addAll(ExtractGuard.all());
        return List.copyOf(guards);
    }

    /**
     * Every built-in guard.
     *
     * @return an immutable list
     */
    public static List<ArgumentGuard> builtIns() {
        return BUILT_INS;
    }

    /**
     * The guard for {@code find}.
     *
     * @return the guard
     */
    public static ArgumentGuard find() {
        return BUILT_INS.get(0);
    }

    /**
     * The guard for {@code git}.
     *
     * @return the guard
     */
    public static ArgumentGuard git() {
        return BUILT_INS.get(1);
    }

    /**
     * The guard for {@code rg}.
     *
     * @return the guard
     */
    public static ArgumentGuard ripgrep() {
        return BUILT_INS.get(2);
    }

    /**
     * The guard for {@code grep}.
     *
     * @return the guard
     */
    public static ArgumentGuard grep() {
        return BUILT_INS.get(3);
    }

    /**
     * The guard for {@code sed}.
     *
     * @return the guard
     */
    public static ArgumentGuard sed() {
        return BUILT_INS.get(4);
    }

    /**
     * The guard for {@code awk}, {@code gawk} and {@code mawk}.
     *
     * @return the guard
     */
    public static ArgumentGuard awk() {
        return BUILT_INS.get(5);
    }

    /**
     * The guard for {@code tar}.
     *
     * @return the guard
     */
    public static ArgumentGuard tar() {
        return BUILT_INS.get(6);
    }

    /**
     * The guard for {@code sort}.
     *
     * @return the guard
     */
    public static ArgumentGuard sort() {
        return BUILT_INS.get(7);
    }

    /**
     * The guard for {@code npm}.
     *
     * @return the guard
     */
    public static ArgumentGuard npm() {
        return BUILT_INS.get(8);
    }

    /**
     * The guard for {@code npx}.
     *
     * @return the guard
     */
    public static ArgumentGuard npx() {
        return BUILT_INS.get(9);
    }

    /**
     * The guard for {@code ps}.
     *
     * @return the guard
     */
    public static ArgumentGuard ps() {
        return BUILT_INS.get(10);
    }
}
