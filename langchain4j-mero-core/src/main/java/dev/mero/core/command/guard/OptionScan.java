package dev.mero.core.command.guard;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Reads an argument list the way GNU {@code getopt_long} does, so that a guard sees each option however it is
 * spelled: grouped ({@code -xvI prog}), glued ({@code -Iprog}), with {@code =} or a separate value
 * ({@code --to-command=x}, {@code --to-command x}), abbreviated ({@code --to-com x}), after operands (GNU
 * programs permute), and not after {@code --}.
 *
 * <p>The tables a guard gives must never claim that an option takes a value when it does not: the scan would
 * then skip the next argument unseen. Leaving an option out of a table is the safe direction (its value is
 * then read as another option or operand, which can only make a guard refuse more).
 */
final class OptionScan {

    private final List<Option> options = new ArrayList<>();
    private final List<String> operands = new ArrayList<>();

    /**
     * One option as given.
     *
     * @param name     the letter of a short option, or a long option's name as written (without dashes and
     *                 value)
     * @param longForm whether it was written {@code --name}
     * @param value    its value, or {@code null}
     * @param resolved for a long option, the known name it abbreviates unambiguously (itself when exact), else
     *                 {@code null}
     */
    record Option(String name, boolean longForm, String value, String resolved) {

        /** Whether this is the short option {@code letter}. */
        boolean isShort(char letter) {
            return !longForm && name.charAt(0) == letter;
        }

        /**
         * Whether this long option may stand for {@code full}: it is {@code full}, or it is not exactly another
         * known option and is a prefix of {@code full} (GNU accepts any unambiguous prefix; an ambiguous one is
         * an error, so refusing it costs nothing).
         */
        boolean isLong(String full) {
            if (!longForm || name.isEmpty()) {
                return false;
            }
            return name.equals(resolved) ? name.equals(full) : full.startsWith(name);
        }
    }

    /** What a program's options look like. */
    record Spec(String shortWithValue, String shortOptionalValue, Set<String> longWithValue, Set<String> longNames,
                boolean stopAtFirstOperand) {

        /** A GNU-style program that permutes, with no optional-value short options. */
        static Spec gnu(String shortWithValue, Set<String> longWithValue, Set<String> longNames) {
            return new Spec(shortWithValue, "", longWithValue, longNames, false);
        }
    }

    private OptionScan() {
    }

    /** Scans {@code arguments} from the first. */
    static OptionScan of(List<String> arguments, Spec spec) {
        OptionScan scan = new OptionScan();
        boolean optionsEnded = false;
        for (int i = 0; i < arguments.size(); i++) {
            String argument = arguments.get(i);
            if (optionsEnded || argument.length() < 2 || !argument.startsWith("-")) {
                scan.operands.add(argument);
                optionsEnded |= spec.stopAtFirstOperand();
            } else if (argument.equals("--")) {
                optionsEnded = true;
            } else if (argument.startsWith("--")) {
                i = scan.longOption(arguments, i, spec);
            } else {
                i = scan.shortCluster(arguments, i, spec);
            }
        }
        return scan;
    }

    private int longOption(List<String> arguments, int i, Spec spec) {
        String argument = arguments.get(i);
        int eq = argument.indexOf('=');
        String name = eq < 0 ? argument.substring(2) : argument.substring(2, eq);
        String resolved = resolve(name, spec.longNames());
        if (eq >= 0) {
            options.add(new Option(name, true, argument.substring(eq + 1), resolved));
            return i;
        }
        if (resolved != null && spec.longWithValue().contains(resolved) && i + 1 < arguments.size()) {
            options.add(new Option(name, true, arguments.get(i + 1), resolved));
            return i + 1;
        }
        options.add(new Option(name, true, null, resolved));
        return i;
    }

    private int shortCluster(List<String> arguments, int i, Spec spec) {
        String argument = arguments.get(i);
        for (int k = 1; k < argument.length(); k++) {
            char letter = argument.charAt(k);
            String name = String.valueOf(letter);
            String rest = argument.substring(k + 1);
            if (spec.shortWithValue().indexOf(letter) >= 0) {
                if (!rest.isEmpty()) {
                    options.add(new Option(name, false, rest, null));
                    return i;
                }
                boolean hasNext = i + 1 < arguments.size();
                options.add(new Option(name, false, hasNext ? arguments.get(i + 1) : null, null));
                return hasNext ? i + 1 : i;
            }
            if (spec.shortOptionalValue().indexOf(letter) >= 0) {
                options.add(new Option(name, false, rest.isEmpty() ? null : rest, null));
                return i;
            }
            options.add(new Option(name, false, null, null));
        }
        return i;
    }

    /** The known name {@code name} stands for: itself if known, else the only known name it prefixes. */
    private static String resolve(String name, Set<String> known) {
        if (known.contains(name)) {
            return name;
        }
        String found = null;
        for (String candidate : known) {
            if (!name.isEmpty() && candidate.startsWith(name)) {
                if (found != null) {
                    return null;
                }
                found = candidate;
            }
        }
        return found;
    }

    /** The options, in order. */
    List<Option> options() {
        return options;
    }

    /** The operands, in order. */
    List<String> operands() {
        return operands;
    }

    /** The first option that may stand for one of the long names or is one of the short letters, if any. */
    Option find(String shortLetters, String... longNames) {
        for (Option option : options) {
            if (!option.longForm() && shortLetters.indexOf(option.name().charAt(0)) >= 0) {
                return option;
            }
            for (String longName : longNames) {
                if (option.isLong(longName)) {
                    return option;
                }
            }
        }
        return null;
    }
}
