package dev.mero.core.command.guard;

import dev.mero.core.message.Messages;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code ps} (procps): refuses the BSD-style {@code e} flag ({@code ps e}, {@code ps eww}, {@code ps axe},
 * {@code ps ep 1}), which prints the environment of every process shown, the host's secrets included. A
 * BSD-style word is any argument without a leading dash that is not the value of an option before it; a word
 * that contains {@code e} anywhere is refused, even where {@code e} belongs to a glued value such as
 * {@code opid,euser}: give a format with {@code -o} instead. {@code -e} (every process) shows no environment
 * and stays allowed; procps has no format keyword for the environment.
 */
final class PsGuard extends ProgramGuard {

    /** UNIX-style options (after '-') whose value is the rest of the cluster or the next argument. */
    private static final String DASH_WITH_VALUE = "CGgoOpqstUuk";
    /** BSD-style options whose value is the rest of the word or the next argument. */
    private static final String BSD_WITH_VALUE = "OopqtUk";
    private static final Set<String> LONG_WITH_VALUE = Set.of("format", "pid", "ppid", "sid", "tty", "user", "User",
            "group", "Group", "sort", "cols", "columns", "width", "rows", "lines", "quick-pid", "help");

    PsGuard() {
        super(Set.of("ps"));
    }

    @Override
    Optional<String> inspect(List<String> arguments) {
        for (int i = 0; i < arguments.size(); i++) {
            String argument = arguments.get(i);
            if (argument.startsWith("--")) {
                String name = argument.substring(2);
                i += !name.contains("=") && LONG_WITH_VALUE.contains(name) ? 1 : 0;
            } else if (argument.startsWith("-")) {
                i += takesNext(argument.substring(1), DASH_WITH_VALUE) ? 1 : 0;
            } else if (argument.indexOf('e') >= 0) {
                return refuse("the BSD-style option 'e' in " + Messages.quote(argument) + " prints the environment "
                        + "of the processes shown, secrets included; leave it out (choose columns with -o)");
            } else {
                i += takesNext(argument, BSD_WITH_VALUE) ? 1 : 0;
            }
        }
        return Optional.empty();
    }

    /** Whether a cluster of letters ends with an option whose value is the next argument. */
    private static boolean takesNext(String letters, String withValue) {
        for (int k = 0; k < letters.length(); k++) {
            if (withValue.indexOf(letters.charAt(k)) >= 0) {
                return k == letters.length() - 1;
            }
        }
        return false;
    }
}
