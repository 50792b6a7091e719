package dev.mero.core.command;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The targets of the symbolic links {@code ln -s} creates, and the directories they will be read from. The
 * kernel resolves a relative link target against the directory that holds the link, not against the working
 * directory of the {@code ln} that made it: {@code ln -s ../O ../../planted} plants a link that leads to
 * {@code ../O} seen from {@code ../..}. Each such target is therefore judged from every directory the link may
 * end up in: the named directory ({@code -t dir}, or a last operand that is a directory) and the parent of a
 * last operand that names the link itself; with one operand, the working directory.
 *
 * <p>{@code ln -r} (relative) takes the target relative to the working directory, which the ordinary path
 * check judges; its targets are judged from the link's directory as well, in case the option was misread.
 * Hard links ({@code ln} without {@code -s}) have no target text.
 */
final class LinkTargets {

    /**
     * A link target as written and the directories (as written, relative to the working directory;
     * {@code "."} for the working directory) it is read from.
     */
    record Target(String target, List<String> directories) {
    }

    /** ln's options that take the next argument as their value. */
    private static final String SHORT_WITH_VALUE = "St";
    /**
     * ln's long options whose value may be the next argument, each with the shortest abbreviation GNU ln takes for
     * it ({@code --t} is {@code --target-directory}; {@code --s} is ambiguous).
     */
    private static final Map<String, Integer> LONG_WITH_VALUE = Map.of("suffix", 2, "target-directory", 1);

    private LinkTargets() {
    }

    /** The relative targets of the symbolic links this command creates; empty unless it is {@code ln -s}. */
    static List<Target> of(Set<String> programNames, List<String> argv) {
        if (!programNames.contains("ln")) {
            return List.of();
        }
        boolean symbolic = false;
        String targetDirectory = null;
        List<String> operands = new ArrayList<>();
        boolean optionsEnded = false;
        for (int i = 1; i < argv.size(); i++) {
            String argument = argv.get(i);
            if (optionsEnded || argument.equals("-") || !argument.startsWith("-")) {
                operands.add(argument);
            } else if (argument.equals("--")) {
                optionsEnded = true;
            } else if (argument.startsWith("--")) {
                int eq = argument.indexOf('=');
                String name = eq < 0 ? argument.substring(2) : argument.substring(2, eq);
                symbolic |= prefixOf(name, "symbolic", 2);
                if (prefixOf(name, "target-directory", LONG_WITH_VALUE.get("target-directory"))) {
                    targetDirectory = eq >= 0 ? argument.substring(eq + 1) : i + 1 < argv.size() ? argv.get(i + 1) : null;
                }
                if (eq < 0 && LONG_WITH_VALUE.entrySet().stream()
                        .anyMatch(option -> prefixOf(name, option.getKey(), option.getValue()))) {
                    i++;
                }
            } else {
                for (int k = 1; k < argument.length(); k++) {
                    char letter = argument.charAt(k);
                    symbolic |= letter == 's';
                    if (SHORT_WITH_VALUE.indexOf(letter) >= 0) {
                        String value = k + 1 < argument.length() ? argument.substring(k + 1)
                                : i + 1 < argv.size() ? argv.get(++i) : null;
                        if (letter == 't') {
                            targetDirectory = value;
                        }
                        break;
                    }
                }
            }
        }
        if (!symbolic) {
            return List.of();
        }
        List<String> targets;
        List<String> directories = new ArrayList<>();
        if (targetDirectory != null) {
            targets = operands;
            directories.add(targetDirectory);
        } else if (operands.size() >= 2) {
            targets = operands.subList(0, operands.size() - 1);
            String last = operands.get(operands.size() - 1);
            directories.add(last);
            directories.add(parentOf(last));
        } else {
            targets = operands;
            directories.add(".");
        }
        List<Target> result = new ArrayList<>();
        for (String target : targets) {
            if (!target.startsWith("/") && !target.isEmpty()) {
                result.add(new Target(target, List.copyOf(directories)));
            }
        }
        return result;
    }

    private static boolean prefixOf(String name, String full, int minimum) {
        return name.length() >= minimum && full.startsWith(name);
    }

    /** The directory a link named {@code path} is created in, as written. */
    private static String parentOf(String path) {
        String trimmed = path;
        while (trimmed.length() > 1 && trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        int slash = trimmed.lastIndexOf('/');
        if (slash < 0) {
            return ".";
        }
        return slash == 0 ? "/" : trimmed.substring(0, slash);
    }
}
