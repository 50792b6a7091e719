package dev.mero.core.command;

import dev.mero.core.CommandDeniedException;
import dev.mero.core.InvalidInputException;
import dev.mero.core.message.Messages;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a command line into an argument vector with POSIX-style quoting, without ever involving a shell.
 *
 * <pre>{@code
 * CommandLineParser.parse("git commit -m 'first commit'")   // [git, commit, -m, first commit]
 * CommandLineParser.parse("grep -e \"a b\" notes.txt")       // [grep, -e, a b, notes.txt]
 * CommandLineParser.parse("ls | wc -l")                      // CommandDeniedException: shell operator '|'
 * }</pre>
 *
 * <p>Quoting follows the shell: single quotes keep everything literally; double quotes keep everything except
 * that a backslash escapes {@code "}, {@code \}, {@code $} and a backtick; outside quotes a backslash makes the
 * next character literal; adjacent quoted and unquoted parts form one argument.
 *
 * <p>Because no shell runs the result, everything a shell would interpret is refused with a
 * {@link CommandDeniedException} that says so and what to do instead, rather than passed on as a literal that
 * the model believes was interpreted: the operators {@code ; & && | ||}, backticks, {@code $(}, <code>${</code>,
 * {@code $VAR} and any other unquoted or double-quoted {@code $}, redirections and here-documents ({@code < >}),
 * groups and brace expansion ({@code ( ) { }}), unquoted glob characters ({@code * ? [}), an unquoted
 * {@code ~} at the start of a word or after {@code =} or {@code :}, an unquoted {@code #} starting a word, an
 * unquoted {@code !}, a leading {@code NAME=value}, line breaks, and control, zero-width, bidirectional and
 * non-ASCII space characters (even quoted). Quoted metacharacters are ordinary characters:
 * {@code grep 'a|b' notes.txt} is fine.
 *
 * <p>An empty line, a line longer than {@value #MAX_LENGTH} characters, more than {@value #MAX_ARGUMENTS}
 * arguments, an unterminated quote and a trailing backslash are ordinary input errors
 * ({@link InvalidInputException}). The class is stateless and thread-safe.
 */
public final class CommandLineParser {

    /** Longest command line accepted, in characters. */
    public static final int MAX_LENGTH = 8192;
    /** Most arguments accepted, the program included. */
    public static final int MAX_ARGUMENTS = 256;

    private CommandLineParser() {
    }

    /**
     * Splits a command line into its arguments.
     *
     * @param line the command line, as the model wrote it
     * @return the argument vector, program first; never empty
     * @throws CommandDeniedException if the line contains shell syntax or forbidden characters
     * @throws InvalidInputException  if the line is empty, too long, has too many arguments, or has an
     *                                unterminated quote
     */
    public static List<String> parse(String line) {
        if (line == null || line.isBlank()) {
            throw new InvalidInputException("The command is empty. Give a command such as 'git status'.");
        }
        if (line.length() > MAX_LENGTH) {
            throw new InvalidInputException("The command is " + line.length() + " characters long; the limit is "
                    + MAX_LENGTH + ". Give a shorter command.");
        }
        refuseInvisibleCharacters(line);
        return new Scanner(line).words();
    }

    private static void refuseInvisibleCharacters(String line) {
        for (int i = 0; i < line.length(); ) {
            int cp = line.codePointAt(i);
            if (cp == '\n' || cp == '\r') {
                throw ShellSyntax.LINE_BREAK.refusal(line, Messages.codePoint(cp) + " at index " + i);
            }
            if (cp != '\t' && isInvisible(cp)) {
                throw ShellSyntax.INVISIBLE.refusal(line, Messages.codePoint(cp) + " at index " + i);
            }
            i += Character.charCount(cp);
        }
    }

    private static boolean isInvisible(int cp) {
        return Messages.isControlOrInvisible(cp) || (Character.getType(cp) == Character.SPACE_SEPARATOR && cp != ' ');
    }

    /** One pass over one line; not shared between threads. */
    private static final class Scanner {

        private final String line;
        private final List<String> words = new ArrayList<>();
        private final StringBuilder word = new StringBuilder();
        /** Whether the current word has started (an empty quoted word counts). */
        private boolean inWord;
        /** Whether any part of the current word was quoted or escaped. */
        private boolean quotedSoFar;
        private int wordStart;
        /** The previous character of the current word if it was unquoted, else 0. */
        private char previousUnquoted;
        private int i;

        Scanner(String line) {
            this.line = line;
        }

        List<String> words() {
            while (i < line.length()) {
                char c = line.charAt(i);
                if (c == ' ' || c == '\t') {
                    endWord();
                    i++;
                    continue;
                }
                if (!inWord) {
                    inWord = true;
                    wordStart = i;
                }
                switch (c) {
                    case '\'' -> singleQuoted();
                    case '"' -> doubleQuoted();
                    case '\\' -> escaped();
                    default -> unquoted(c);
                }
            }
            endWord();
            return List.copyOf(words);
        }

        private void unquoted(char c) {
            switch (c) {
                case ';', '&', '|' -> throw ShellSyntax.OPERATOR.refusal(line, shown(i, ";&|"));
                case '`' -> throw ShellSyntax.COMMAND_SUBSTITUTION.refusal(line, Messages.quote("`"));
                case '$' -> throw dollar(i);
                case '<', '>' -> throw ShellSyntax.REDIRECTION.refusal(line, shown(i, "<>&|("));
                case '(', ')', '{', '}' -> throw ShellSyntax.GROUP.refusal(line, Messages.quote(String.valueOf(c)));
                case '*', '?', '[' -> throw ShellSyntax.GLOB.refusal(line, Messages.quote(String.valueOf(c)));
                case '!' -> throw ShellSyntax.HISTORY.refusal(line, Messages.quote("!"));
                case '#' -> {
                    if (word.length() == 0 && !quotedSoFar) {
                        throw ShellSyntax.COMMENT.refusal(line, Messages.quote("#"));
                    }
                }
                case '~' -> {
                    boolean wordStartsHere = word.length() == 0 && !quotedSoFar;
                    if (wordStartsHere || previousUnquoted == '=' || previousUnquoted == ':') {
                        throw ShellSyntax.TILDE.refusal(line, Messages.quote("~"));
                    }
                }
                case '=' -> {
                    if (words.isEmpty() && !quotedSoFar && isName(word)) {
                        throw ShellSyntax.ASSIGNMENT.refusal(line, Messages.quote(rawWord()));
                    }
                }
                default -> {
                    // an ordinary character
                }
            }
            word.append(c);
            previousUnquoted = c;
            i++;
        }

        private void singleQuoted() {
            int close = line.indexOf('\'', i + 1);
            if (close < 0) {
                throw unterminated("single", i);
            }
            String content = line.substring(i + 1, close);
            refuseTab(content.indexOf('\t'), i + 1);
            word.append(content);
            quoted(close + 1);
        }

        private void doubleQuoted() {
            int open = i;
            int j = i + 1;
            while (j < line.length()) {
                char c = line.charAt(j);
                if (c == '"') {
                    quoted(j + 1);
                    return;
                }
                if (c == '\\' && j + 1 < line.length() && "\"\\$`".indexOf(line.charAt(j + 1)) >= 0) {
                    word.append(line.charAt(j + 1));
                    j += 2;
                    continue;
                }
                if (c == '$') {
                    throw dollar(j);
                }
                if (c == '`') {
                    throw ShellSyntax.COMMAND_SUBSTITUTION.refusal(line, Messages.quote("`"));
                }
                refuseTab(c == '\t' ? 0 : -1, j);
                word.append(c);
                j++;
            }
            throw unterminated("double", open);
        }

        private void escaped() {
            if (i + 1 >= line.length()) {
                throw new InvalidInputException("Command " + Messages.quote(line) + " ends with a backslash, which "
                        + "escapes nothing. Remove it, or write '\\\\' for a literal backslash.");
            }
            int cp = line.codePointAt(i + 1);
            refuseTab(cp == '\t' ? 0 : -1, i + 1);
            word.appendCodePoint(cp);
            quoted(i + 1 + Character.charCount(cp));
        }

        private void quoted(int next) {
            quotedSoFar = true;
            previousUnquoted = 0;
            i = next;
        }

        private void endWord() {
            if (inWord) {
                if (words.size() == MAX_ARGUMENTS) {
                    throw new InvalidInputException("Command " + Messages.quote(abbreviated()) + " has more than "
                            + MAX_ARGUMENTS + " arguments. Give fewer arguments.");
                }
                words.add(word.toString());
            }
            word.setLength(0);
            inWord = false;
            quotedSoFar = false;
            previousUnquoted = 0;
        }

        private void refuseTab(int offset, int base) {
            if (offset >= 0) {
                throw ShellSyntax.INVISIBLE.refusal(line, Messages.codePoint('\t') + " at index " + (base + offset));
            }
        }

        private CommandDeniedException dollar(int at) {
            char next = at + 1 < line.length() ? line.charAt(at + 1) : 0;
            if (next == '(') {
                return ShellSyntax.COMMAND_SUBSTITUTION.refusal(line, Messages.quote("$("));
            }
            int end = at + 1;
            while (end < line.length() && isNameChar(line.charAt(end))) {
                end++;
            }
            if (end == at + 1 && next != 0) {
                end = at + 2;
            }
            return ShellSyntax.VARIABLE.refusal(line, Messages.quote(line.substring(at, Math.min(end, at + 40))));
        }

        /** The character at {@code at}, joined by a next one from {@code joiners} ({@code &&}, {@code >>}). */
        private String shown(int at, String joiners) {
            boolean pair = at + 1 < line.length() && joiners.indexOf(line.charAt(at + 1)) >= 0;
            return Messages.quote(line.substring(at, pair ? at + 2 : at + 1));
        }

        private String rawWord() {
            int end = wordStart;
            while (end < line.length() && line.charAt(end) != ' ' && line.charAt(end) != '\t') {
                end++;
            }
            String raw = line.substring(wordStart, end);
            return raw.length() <= 60 ? raw : raw.substring(0, 57) + "...";
        }

        private InvalidInputException unterminated(String kind, int at) {
            return new InvalidInputException("Command " + Messages.quote(line) + " has an unterminated " + kind
                    + " quote starting at index " + at + ". Close the quote; inside single quotes nothing is special, "
                    + "so write a literal single quote as \\' outside quotes.");
        }

        private String abbreviated() {
            return line.length() <= 200 ? line : line.substring(0, 197) + "...";
        }

        private static boolean isName(CharSequence text) {
            if (text.length() == 0 || Character.isDigit(text.charAt(0))) {
                return false;
            }
            for (int k = 0; k < text.length(); k++) {
                if (!isNameChar(text.charAt(k))) {
                    return false;
                }
            }
            return true;
        }

        private static boolean isNameChar(char c) {
            return c == '_' || (c < 128 && Character.isLetterOrDigit(c));
        }
    }
}
