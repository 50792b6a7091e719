package dev.mero.core.command;

import java.util.List;
import java.util.Set;

/**
 * Programs that run other programs or code: shells, interpreters, program launchers, privilege changers,
 * debuggers and tracers, editors and pagers with shell escapes, build tools that run recipes. What such a
 * program runs is not a command the policy sees, so it runs only when an allow rule names it explicitly.
 *
 * <p>The list is deliberately generous: a false positive costs one explicit rule, a false negative lets a
 * payload past every rule.
 */
final class WrapperPrograms {

    private static final Set<String> NAMES = Set.of(
            // shells and multi-call binaries that contain one
            "sh", "bash", "rbash", "dash", "ash", "ksh", "ksh93", "mksh", "pdksh", "oksh", "zsh", "csh", "tcsh",
            "fish", "yash", "posh", "elvish", "nu", "xonsh", "pwsh", "powershell", "busybox", "toybox",
            // launchers and modifiers of another program
            "env", "xargs", "timeout", "nice", "ionice", "nohup", "stdbuf", "command", "builtin", "exec", "eval",
            "time", "watch", "chrt", "taskset", "prlimit", "numactl", "cgexec", "setsid", "setarch", "linux32",
            "linux64", "flock", "parallel", "script", "expect", "unbuffer", "faketime", "fakeroot", "catchsegv",
            "daemonize", "start-stop-daemon", "run-parts", "systemd-run", "at", "batch", "crontab",
            "dbus-launch", "xdg-open", "sensible-editor", "sensible-pager", "sensible-browser",
            // identity, privilege and namespace changers
            "sudo", "sudoedit", "doas", "su", "runuser", "pkexec", "sg", "newgrp", "chroot", "unshare", "nsenter",
            "setpriv", "capsh", "firejail", "bwrap", "proot", "schroot",
            // remote and network program runners
            "ssh", "rsh", "scp", "sftp", "slogin", "socat", "nc", "ncat", "netcat",
            // tracers and debuggers
            "strace", "ltrace", "gdb", "lldb", "valgrind", "perf",
            // interpreters
            "nodejs", "deno", "bun", "irb", "jshell", "groovy", "scala", "kotlin", "julia", "Rscript", "R",
            "dotnet", "osascript", "tclsh", "wish", "perldoc",
            // editors and pagers with shell escapes, build tools that run recipes
            "vi", "vim", "nvim", "view", "ex", "rvim", "emacs", "ed", "red", "less", "more", "most", "man",
            "pager", "make", "gmake");

    /**
     * Interpreter families, with or without a version: {@code python3}, {@code python3.11}, {@code perl5.36}.
     * Matched by hand, not by a regular expression whose repeated group recurses once per {@code ".1"} of a long
     * name (a program named {@code python.1.1...} within the command line's length overflowed the stack).
     */
    private static final List<String> FAMILIES = List.of(
            "python", "pypy", "perl", "ruby", "php", "lua", "luajit", "node", "java", "tclsh", "wish", "pwsh");

    /** Multi-call binaries that choose the program by the name they were invoked as. */
    private static final Set<String> MULTI_CALL = Set.of("busybox", "toybox");

    private WrapperPrograms() {
    }

    /** Whether a program of this name runs other programs or code. */
    static boolean isWrapper(String name) {
        if (NAMES.contains(name)) {
            return true;
        }
        for (String family : FAMILIES) {
            if (name.startsWith(family) && isVersion(name, family.length())) {
                return true;
            }
        }
        return false;
    }

    /** Whether the rest of a name is a version, {@code [0-9]*(\.[0-9]+)*}, read once from left to right. */
    private static boolean isVersion(String name, int from) {
        int i = digits(name, from);
        while (i < name.length()) {
            if (name.charAt(i) != '.') {
                return false;
            }
            int end = digits(name, i + 1);
            if (end == i + 1) {
                return false;
            }
            i = end;
        }
        return true;
    }

    private static int digits(String name, int from) {
        int i = from;
        while (i < name.length() && name.charAt(i) >= '0' && name.charAt(i) <= '9') {
            i++;
        }
        return i;
    }

    /** Whether a real file of this name dispatches on the name it was invoked as ({@code ls -> busybox}). */
    static boolean isMultiCall(String realName) {
        return MULTI_CALL.contains(realName);
    }
}
