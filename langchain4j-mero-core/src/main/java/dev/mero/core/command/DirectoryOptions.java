package dev.mero.core.command;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Options that make a program read its other path arguments in another directory: {@code tar -C dir},
 * {@code tar --directory=dir}, {@code git -C dir}, {@code make -C dir}, {@code patch -d dir},
 * {@code env --chdir=dir}, ... A relative path argument of such a command is judged against every directory
 * the program may use, the working directory included, so that {@code tar -C sub -cf - ../../x} is judged
 * where tar reads {@code ../../x}.
 *
 * <p>The reading errs on the side of more directories: a short option letter is looked for in every cluster
 * ({@code -xC}), its value being the rest of the cluster or else the next argument, and a long option counts
 * in every abbreviation GNU {@code getopt_long} would accept. A directory too many only adds checks; a
 * directory missed would let a path through unjudged.
 */
final class DirectoryOptions {

    /**
     * A directory as written, and the index in the argument vector of the argument that is nothing but this
     * option and its value ({@code dir} of {@code -C dir}, or {@code --directory=dir}), or {@code -1} for a value
     * glued into a cluster of short options ({@code -xCdir}), which may hold other values too.
     */
    record Directory(String text, int index) {
    }

    /** A program's directory options: short letters and long names (without dashes). */
    private record Spec(String shortLetters, Set<String> longNames, String tarStyleValueLetters) {
    }

    private static final String TAR_VALUE_LETTERS = "bCfFgHIKLNTVX";
    private static final Spec TAR = new Spec("C", Set.of("directory"), TAR_VALUE_LETTERS);
    private static final Spec MAKE = new Spec("C", Set.of("directory"), "");

    private static final Map<String, Spec> SPECS = Map.ofEntries(
            Map.entry("tar", TAR), Map.entry("gtar", TAR), Map.entry("bsdtar", TAR),
            Map.entry("git", new Spec("C", Set.of(), "")),
            Map.entry("make", MAKE), Map.entry("gmake", MAKE),
            Map.entry("ninja", new Spec("C", Set.of(), "")),
            Map.entry("meson", new Spec("C", Set.of(), "")),
            Map.entry("patch", new Spec("d", Set.of("directory"), "")),
            Map.entry("cpio", new Spec("D", Set.of("directory"), "")),
            Map.entry("env", new Spec("C", Set.of("chdir"), "")),
            Map.entry("npm", new Spec("C", Set.of("prefix"), "")),
            Map.entry("pnpm", new Spec("C", Set.of("dir"), "")),
            Map.entry("yarn", new Spec("", Set.of("cwd"), "")),
            Map.entry("gradle", new Spec("p", Set.of("project-dir"), "")));

    private DirectoryOptions() {
    }

    /**
     * The directories the command's options name, in order, as written: each is relative to the one before
     * it (tar, git and make change directory one option after the other).
     */
    static List<Directory> of(Set<String> programNames, List<String> argv) {
        List<Directory> directories = new ArrayList<>();
        for (String name : programNames) {
            Spec spec = SPECS.get(name);
            if (spec != null) {
                collect(spec, argv, directories);
            }
        }
        return directories;
    }

    private static void collect(Spec spec, List<String> argv, List<Directory> directories) {
        int start = 1;
        if (!spec.tarStyleValueLetters().isEmpty() && argv.size() > 1 && !argv.get(1).startsWith("-")) {
            // old-style 'tar cCf dir a.tar': the letters' values follow the word, in order
            String letters = argv.get(1);
            int next = 2;
            for (int k = 0; k < letters.length(); k++) {
                char letter = letters.charAt(k);
                if (spec.tarStyleValueLetters().indexOf(letter) >= 0 && next < argv.size()) {
                    if (spec.shortLetters().indexOf(letter) >= 0) {
                        directories.add(new Directory(argv.get(next), next));
                    }
                    next++;
                }
            }
            start = next;
        }
        for (int i = start; i < argv.size(); i++) {
            String argument = argv.get(i);
            String next = i + 1 < argv.size() ? argv.get(i + 1) : null;
            if (argument.equals("--")) {
                return;
            }
            if (argument.startsWith("--")) {
                int eq = argument.indexOf('=');
                String name = eq < 0 ? argument.substring(2) : argument.substring(2, eq);
                if (!name.isEmpty() && spec.longNames().stream().anyMatch(full -> full.startsWith(name))) {
                    if (eq >= 0) {
                        directories.add(new Directory(argument.substring(eq + 1), i));
                    } else if (next != null) {
                        directories.add(new Directory(next, i + 1));
                    }
                }
            } else if (argument.startsWith("-") && argument.length() > 1) {
                for (int k = 1; k < argument.length(); k++) {
                    if (spec.shortLetters().indexOf(argument.charAt(k)) >= 0) {
                        if (k + 1 < argument.length()) {
                            directories.add(new Directory(argument.substring(k + 1), -1));
                        } else if (next != null) {
                            directories.add(new Directory(next, i + 1));
                        }
                        break;
                    }
                }
            }
        }
    }
}
