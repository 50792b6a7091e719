package dev.mero.core.command.guard;

import dev.mero.core.message.Messages;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks an awk program for what makes awk run commands, write files or read files the policy did not check.
 *
 * <p>The program text is searched as it is, strings and regular expressions included, because telling them
 * apart needs a full awk parser (a {@code /} may start a regular expression or divide) and a mistake there
 * could hide a {@code system(...)} inside what looked like a string. A literal that merely looks dangerous is
 * therefore refused too, with a hint how to write it otherwise.
 */
final class AwkProgram {

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z_0-9]*");

    private AwkProgram() {
    }

    /** Why the program is refused, or empty. */
    static Optional<String> check(String program) {
        Matcher identifiers = IDENTIFIER.matcher(program);
        boolean getline = false;
        while (identifiers.find()) {
            switch (identifiers.group()) {
                case "system" -> {
                    return refuse(program, "calls system(), which runs a shell command");
                }
                case "ARGV", "ARGC" -> {
                    return refuse(program, "uses " + identifiers.group() + ", which can make awk read files the "
                            + "policy did not check; name the files as arguments");
                }
                case "getline" -> getline = true;
                default -> {
                    // an ordinary identifier
                }
            }
        }
        if (program.indexOf('@') >= 0) {
            return refuse(program, "contains '@', which gawk uses for @load, @include and indirect function calls "
                    + "(write a literal '@' as \"\\100\")");
        }
        if (hasSinglePipe(program)) {
            return refuse(program, "contains '|', which awk uses to run commands (print | \"cmd\", \"cmd\" | getline); "
                    + "write a literal '|' as \"\\174\", and use grep -E for alternatives");
        }
        int print = program.indexOf("print");
        if (print >= 0 && program.indexOf('>', print) >= 0) {
            return refuse(program, "contains '>' after print, which awk uses to write files; let awk print to "
                    + "standard output (compare before printing, or write '>' as \"\\076\")");
        }
        if (getline && program.indexOf('<') >= 0) {
            return refuse(program, "uses getline with '<', which reads a file the policy did not check; name the "
                    + "file as an argument");
        }
        return Optional.empty();
    }

    /** Whether there is a {@code |} that is not half of {@code ||}. */
    private static boolean hasSinglePipe(String program) {
        for (int i = 0; i < program.length(); ) {
            if (program.charAt(i) != '|') {
                i++;
                continue;
            }
            int run = i;
            while (run < program.length() && program.charAt(run) == '|') {
                run++;
            }
            if (run - i != 2) {
                return true;
            }
            i = run;
        }
        return false;
    }

    private static Optional<String> refuse(String program, String reason) {
        String shown = program.length() <= 60 ? program : program.substring(0, 57) + "...";
        return Optional.of("the awk program " + Messages.quote(shown) + " " + reason);
    }
}
