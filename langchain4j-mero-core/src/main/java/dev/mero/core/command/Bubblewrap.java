package dev.mero.core.command;

import dev.mero.core.CommandDeniedException;
import dev.mero.core.message.Messages;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes the {@code bwrap} command line of one sandboxed run (see {@link CommandSandbox} for the layout).
 * Every path and value is one element of the argument vector; nothing passes through a shell.
 */
final class Bubblewrap {

    /** Top-level names the system part of the sandbox occupies; no mount of a view may take them. */
    static final Set<String> SYSTEM_NAMES = Set.of("usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32",
            "etc", "proc", "dev", "tmp");

    /** The top-level system directories: symbolic links on merged-/usr systems, directories elsewhere. */
    private static final List<String> TOP_LEVEL = List.of("bin", "sbin", "lib", "lib32", "lib64", "libx32");

    /** The {@code /etc} files programs need to start and to name users; no configuration that runs code. */
    private static final List<String> ETC_FILES = List.of("ld.so.cache", "passwd", "group", "nsswitch.conf",
            "localtime", "alternatives");

    /** What name resolution and TLS need, added only when the network is shared. */
    private static final List<String> ETC_NETWORK_FILES = List.of("resolv.conf", "hosts", "host.conf", "gai.conf",
            "services", "protocols", "ssl", "ca-certificates", "pki", "crypto-policies");

    private static final List<String> SYSTEM = systemArguments();

    /** The user the program runs as, also when the library runs as root: nobody, without any capability. */
    static final int SANDBOX_ID = 65534;

    /**
     * An unprivileged user and group of a user namespace of its own, which cannot create further user
     * namespaces, and no capability at all (bwrap sets {@code NoNewPrivs} in any case).
     */
    private static final List<String> IDENTITY = List.of("--unshare-user", "--disable-userns",
            "--uid", Integer.toString(SANDBOX_ID), "--gid", Integer.toString(SANDBOX_ID), "--cap-drop", "ALL");

    private Bubblewrap() {
    }

    /**
     * The full command line of a sandboxed run.
     *
     * @param settings         the sandbox settings
     * @param view             the mounts
     * @param environment      the child's complete environment
     * @param workingDirectory the working directory inside the sandbox
     * @param program          where the program is visible inside the sandbox, with any extra read-only
     *                         mounts it needs
     * @param arguments        the program's arguments
     * @param seccomp          whether {@code bwrap} reads a seccomp filter from descriptor 3
     * @return the argument vector, {@code bwrap} first
     */
    static List<String> command(CommandSandbox settings, SandboxView view, Map<String, String> environment,
                                String workingDirectory, Program program, List<String> arguments,
                                boolean seccomp) {
        for (SandboxView.Mount mount : view.mounts()) {
            Path target = Path.of(mount.target());
            if (target.getNameCount() == 1 && SYSTEM_NAMES.contains(target.getName(0).toString())) {
                throw new IllegalArgumentException("A mount at " + target + " would hide a system directory of the "
                        + "command sandbox");
            }
        }
        List<String> argv = new ArrayList<>();
        argv.add(settings.bubblewrap().toString());
        argv.add("--unshare-all");
        if (settings.network()) {
            argv.add("--share-net");
        }
        argv.addAll(IDENTITY);
        argv.addAll(List.of("--die-with-parent", "--new-session", "--as-pid-1", "--hostname", "sandbox",
                "--clearenv"));
        environment.forEach((name, value) -> argv.addAll(List.of("--setenv", name, value)));
        argv.addAll(SYSTEM);
        if (settings.network()) {
            for (String name : ETC_NETWORK_FILES) {
                argv.addAll(List.of("--ro-bind-try", "/etc/" + name, "/etc/" + name));
            }
        }
        argv.addAll(List.of("--proc", "/proc", "--dev", "/dev"));
        argv.addAll(tmp(settings.limits().tmpSizeBytes()));
        argv.addAll(mountArguments(view, program));
        argv.add("--remount-ro");
        argv.add("/");
        if (seccomp) {
            // a launcher opened the filter as this descriptor (see LimitEnforcement)
            argv.addAll(List.of("--seccomp", Integer.toString(LimitEnforcement.SECCOMP_FD)));
        }
        argv.addAll(List.of("--chdir", workingDirectory, "--", program.path()));
        argv.addAll(arguments);
        return argv;
    }

    /** The mounts of a view and of the program's directories, parents first. */
    private static List<String> mountArguments(SandboxView view, Program program) {
        List<String> argv = new ArrayList<>();
        List<SandboxView.Mount> mounts = new ArrayList<>(view.mounts());
        for (Path directory : program.directories()) {
            mounts.add(new SandboxView.Mount(directory, directory.toString(), SandboxView.Mode.READ_ONLY));
        }
        // parents first, so that no mount hides one nested in it
        mounts.sort(Comparator.comparingInt(mount -> Path.of(mount.target()).getNameCount()));
        for (SandboxView.Mount mount : mounts) {
            switch (mount.mode()) {
                case READ_WRITE -> argv.addAll(List.of("--bind", mount.source().toString(), mount.target()));
                case READ_ONLY -> argv.addAll(List.of("--ro-bind", mount.source().toString(), mount.target()));
                case MASKED -> argv.addAll(List.of("--tmpfs", mount.target(), "--remount-ro", mount.target()));
            }
        }
        argv.addAll(ProtectedMasks.arguments(view));
        return argv;
    }

    /** A private {@code /tmp} of the given size that the unprivileged user can write. */
    private static List<String> tmp(long bytes) {
        return List.of("--perms", "1777", "--size", Long.toString(bytes), "--tmpfs", "/tmp");
    }

    /**
     * The arguments that run {@code true} in the system part of the sandbox alone, to probe whether
     * {@code bwrap} works here.
     *
     * @param bubblewrap the executable
     * @param program    an absolute {@code true} program under {@code /usr} or a top-level system directory
     * @return the argument vector
     */
    static List<String> probe(Path bubblewrap, String program) {
        List<String> argv = new ArrayList<>(List.of(bubblewrap.toString(), "--unshare-all"));
        argv.addAll(IDENTITY);
        argv.addAll(List.of("--die-with-parent", "--new-session", "--as-pid-1", "--clearenv"));
        argv.addAll(SYSTEM);
        argv.addAll(List.of("--proc", "/proc", "--dev", "/dev"));
        argv.addAll(tmp(ByteSize.MEBIBYTE));
        argv.addAll(List.of("--remount-ro", "/", "--chdir", "/", "--", program));
        return argv;
    }

    /**
     * Places a program inside the sandbox: at its virtual path when a mount shows it, at its own path when it
     * is a system program, otherwise at its own path with its directory (and its real file's directory)
     * mounted read-only.
     *
     * @param view        the mounts
     * @param executable  the program as found on the search path, symbolic links kept
     * @param real        the file it resolves to
     * @param commandLine the command line, for the refusal
     * @return the placement
     * @throws CommandDeniedException if the program's directory would land inside a mount of the view or in
     *                                a system directory the sandbox provides itself
     */
    static Program place(SandboxView view, Path executable, Path real, String commandLine) {
        var located = view.locate(executable);
        if (located.isPresent()) {
            return new Program(located.get(), List.of());
        }
        List<Path> directories = new ArrayList<>();
        for (Path file : List.of(executable, real)) {
            Path directory = file.getParent();
            if (isSystem(file) || view.locate(file).isPresent() || directories.contains(directory)) {
                continue;
            }
            boolean insideMount = view.mounts().stream().anyMatch(mount -> directory.startsWith(mount.target()));
            if (insideMount || SYSTEM_NAMES.contains(directory.getName(0).toString()) && !directory.startsWith("/tmp")) {
                throw new CommandDeniedException("Command " + Messages.quote(commandLine) + " cannot run: its "
                        + "program is not visible inside the command sandbox. Install it on the command search "
                        + "path under /usr, or in a directory the sandbox can show.")
                        .withAuditDetail("program " + Messages.quote(executable.toString()) + ", real file "
                                + Messages.quote(real.toString()));
            }
            directories.add(directory);
        }
        return new Program(executable.toString(), directories);
    }

    /**
     * A program's path inside the sandbox and the host directories to mount read-only at their own paths so
     * that it is there.
     *
     * @param path        the program inside the sandbox
     * @param directories directories to mount read-only
     */
    record Program(String path, List<Path> directories) {
    }

    /** Whether the system part of the sandbox shows a file at its own path. */
    private static boolean isSystem(Path file) {
        if (file.getNameCount() == 0) {
            return false;
        }
        String first = file.getName(0).toString();
        return first.equals("usr") || TOP_LEVEL.contains(first);
    }

    private static List<String> systemArguments() {
        List<String> argv = new ArrayList<>(List.of("--ro-bind", "/usr", "/usr"));
        for (String name : TOP_LEVEL) {
            Path path = Path.of("/" + name);
            try {
                if (Files.isSymbolicLink(path)) {
                    argv.addAll(List.of("--symlink", Files.readSymbolicLink(path).toString(), path.toString()));
                } else if (Files.isDirectory(path)) {
                    argv.addAll(List.of("--ro-bind", path.toString(), path.toString()));
                }
            } catch (IOException e) {
                // unreadable: the sandbox simply lacks it
            }
        }
        for (String name : ETC_FILES) {
            argv.addAll(List.of("--ro-bind-try", "/etc/" + name, "/etc/" + name));
        }
        return List.copyOf(argv);
    }
}
