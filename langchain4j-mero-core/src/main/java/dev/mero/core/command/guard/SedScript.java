package dev.mero.core.command.guard;

import dev.mero.core.message.Messages;

import java.util.Optional;

/**
 * Reads a one-line GNU sed script far enough to find the commands that run programs ({@code e},
 * {@code s///e}), write files ({@code w}, {@code W}, {@code s///w}) or read files ({@code r}, {@code R}).
 *
 * <p>Fail closed: anything the reader does not understand makes the script refused, and where GNU sed and a
 * naive reader could disagree on where a regular expression ends (a delimiter inside a bracket expression,
 * {@code s/[/]/x/}), both readings must agree or the script is refused.
 */
final class SedScript {

    /** Commands that take no argument (or an optional number) and end at {@code ;}, {@code }}, or the end. */
    private static final String SIMPLE = "=dDgGhHlnNpPxzFqQ";

    private final String script;
    private int i;

    private SedScript(String script) {
        this.script = script;
    }

    /** Why the script is refused, or empty. */
    static Optional<String> check(String script) {
        try {
            new SedScript(script).commands();
            return Optional.empty();
        } catch (Refused e) {
            return Optional.of(e.getMessage());
        }
    }

    private void commands() {
        while (true) {
            skip(" \t;");
            if (i >= script.length()) {
                return;
            }
            char c = script.charAt(i);
            if (c == '#') {
                return;
            }
            if (c == '}') {
                i++;
                continue;
            }
            address();
            skip(" \t");
            while (peek() == '!') {
                i++;
                skip(" \t");
            }
            if (i >= script.length()) {
                throw new Refused("the sed script " + Messages.quote(script) + " ends after an address");
            }
            command(script.charAt(i++));
        }
    }

    private void command(char c) {
        if (c == '{') {
            return;
        }
        if (SIMPLE.indexOf(c) >= 0) {
            skip(" \t");
            while (i < script.length() && Character.isDigit(script.charAt(i))) {
                i++;
            }
            end();
            return;
        }
        switch (c) {
            case 'a', 'i', 'c' -> i = script.length();
            case ':', 'b', 't', 'T', 'v' -> label();
            case 's' -> substitute();
            case 'y' -> {
                char delimiter = delimiter('y');
                regex(delimiter);
                replacement(delimiter);
                end();
            }
            case 'e' -> throw new Refused("the sed command 'e' runs a shell command");
            case 'w', 'W' -> throw new Refused("the sed command " + Messages.quote(String.valueOf(c))
                    + " writes a file; let sed print to standard output instead");
            case 'r', 'R' -> throw new Refused("the sed command " + Messages.quote(String.valueOf(c))
                    + " reads a file the policy cannot check; name the file as an argument instead");
            default -> throw new Refused("the sed guard does not understand the command "
                    + Messages.quote(String.valueOf(c)) + " in " + Messages.quote(script));
        }
    }

    private void substitute() {
        char delimiter = delimiter('s');
        regex(delimiter);
        replacement(delimiter);
        while (i < script.length() && "gpiImM0123456789 \t".indexOf(script.charAt(i)) >= 0) {
            i++;
        }
        char flag = peek();
        if (flag == 'e') {
            throw new Refused("the flag 'e' of the sed command 's' runs the result as a shell command");
        }
        if (flag == 'w') {
            throw new Refused("the flag 'w' of the sed command 's' writes a file; let sed print to standard "
                    + "output instead");
        }
        end();
    }

    private void address() {
        single();
        skip(" \t");
        if (peek() == ',') {
            i++;
            skip(" \t");
            if (peek() == '+' || peek() == '~') {
                i++;
            }
            single();
        }
    }

    private void single() {
        char c = peek();
        if (Character.isDigit(c)) {
            while (Character.isDigit(peek()) || peek() == '~') {
                i++;
            }
        } else if (c == '$') {
            i++;
        } else if (c == '/' || c == '\\') {
            i++;
            char delimiter = c == '/' ? '/' : delimiterAt();
            regex(delimiter);
            while (peek() == 'I' || peek() == 'M') {
                i++;
            }
        }
    }

    private char delimiter(char command) {
        char delimiter = peek();
        if (delimiter == 0 || delimiter == '\\' || delimiter == ' ' || delimiter == '\t') {
            throw new Refused("the sed command " + Messages.quote(String.valueOf(command)) + " in "
                    + Messages.quote(script) + " has no usable delimiter");
        }
        i++;
        return delimiter;
    }

    private char delimiterAt() {
        char delimiter = peek();
        if (delimiter == 0 || delimiter == '\\') {
            throw new Refused("the sed address in " + Messages.quote(script) + " has no usable delimiter");
        }
        i++;
        return delimiter;
    }

    /** Skips a regular expression up to its closing delimiter; both readings must end at the same place. */
    private void regex(char delimiter) {
        int naive = skipTo(delimiter, i, false);
        int bracketAware = skipTo(delimiter, i, true);
        if (naive != bracketAware) {
            throw new Refused("the sed guard cannot tell where the regular expression in " + Messages.quote(script)
                    + " ends, because the delimiter " + Messages.quote(String.valueOf(delimiter)) + " appears inside "
                    + "a bracket expression; escape it as " + Messages.quote("\\" + delimiter));
        }
        i = naive;
    }

    private void replacement(char delimiter) {
        i = skipTo(delimiter, i, false);
    }

    /** The index just after the closing delimiter. */
    private int skipTo(char delimiter, int from, boolean brackets) {
        int j = from;
        while (j < script.length()) {
            char c = script.charAt(j);
            if (c == '\\') {
                j += 2;
            } else if (brackets && c == '[') {
                j = afterBracket(j);
            } else if (c == delimiter) {
                return j + 1;
            } else {
                j++;
            }
        }
        throw new Refused("the sed script " + Messages.quote(script) + " has an unterminated regular expression or "
                + "replacement");
    }

    /** The index after a bracket expression starting at {@code open}, as POSIX reads it. */
    private int afterBracket(int open) {
        int j = open + 1;
        if (j < script.length() && script.charAt(j) == '^') {
            j++;
        }
        if (j < script.length() && script.charAt(j) == ']') {
            j++;
        }
        while (j < script.length()) {
            char c = script.charAt(j);
            if (c == '[' && j + 1 < script.length() && ":.=".indexOf(script.charAt(j + 1)) >= 0) {
                int close = script.indexOf(script.charAt(j + 1) + "]", j + 2);
                j = close < 0 ? script.length() : close + 2;
            } else if (c == ']') {
                return j + 1;
            } else {
                j++;
            }
        }
        return j;
    }

    /** A label ends at a blank, {@code ;} or {@code }}; what follows is the next command, as GNU sed reads it. */
    private void label() {
        skip(" \t");
        while (i < script.length() && " \t;}".indexOf(script.charAt(i)) < 0) {
            if (script.charAt(i) == '#') {
                throw new Refused("the sed guard cannot tell where the label in " + Messages.quote(script)
                        + " ends, because it contains '#'");
            }
            i++;
        }
    }

    /** After a command: only blanks, then {@code ;}, {@code }}, {@code #} or the end. */
    private void end() {
        skip(" \t");
        char c = peek();
        if (c != 0 && c != ';' && c != '}' && c != '#') {
            throw new Refused("the sed guard does not understand " + Messages.quote(script.substring(i))
                    + " in the script " + Messages.quote(script));
        }
    }

    private void skip(String characters) {
        while (i < script.length() && characters.indexOf(script.charAt(i)) >= 0) {
            i++;
        }
    }

    private char peek() {
        return i < script.length() ? script.charAt(i) : 0;
    }

    /** Ends the reading with a reason. */
    private static final class Refused extends RuntimeException {

        private static final long serialVersionUID = 1L;

        Refused(String reason) {
            super(reason, null, false, false);
        }
    }
}
