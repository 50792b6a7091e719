package dev.mero.core.command;

import dev.mero.core.MeroToolsException;
import dev.mero.core.message.Messages;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One allowed- or denied-command rule: a program followed by argument tokens, written with the same quoting
 * as a command line ({@code git log --format='%H %s'}).
 *
 * <p><b>As an allow rule</b> the tokens are a prefix of the argument vector, compared token by token and
 * exactly: {@code git status} allows {@code git status --short}, never {@code git statusx} or
 * {@code git push}. The program token compares exactly too: a rule {@code git} matches the command
 * {@code git ...}, a rule {@code /opt/tool/bin/x} matches only {@code /opt/tool/bin/x ...}.
 *
 * <p><b>As a deny rule</b> it matches more generously, because a deny must not be dodged by spelling:
 * <ul>
 *   <li>the program matches by name: a deny {@code rm} also blocks {@code /bin/rm}, and a deny naming a
 *       symlink's target blocks the link ({@code dash} blocks {@code sh} where {@code sh -> dash});</li>
 *   <li>each short option of the rule must be present in any grouping and order ({@code rm -rf} blocks
 *       {@code rm -fr x}, {@code rm -r -f x}, {@code rm x -f -r}), each long option by any abbreviation
 *       ({@code --force} is matched by {@code --forc}), with the {@link OptionSynonyms synonyms} of common
 *       destructive options ({@code rm -Rf}, {@code rm --recursive --force});</li>
 *   <li>the rule's other tokens must appear among the command's non-option arguments in the same order, not
 *       necessarily adjacent ({@code git push --force} blocks {@code git -C repo push origin --force});</li>
 *   <li>option-like arguments count even after {@code --}: a deny errs on the side of blocking.</li>
 * </ul>
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class CommandRule {

    private final String text;
    private final List<String> tokens;

    private CommandRule(String text, List<String> tokens) {
        this.text = text;
        this.tokens = tokens;
    }

    /**
     * Parses a rule.
     *
     * @param rule the rule text, for example {@code "git status"} or {@code "rm -rf"}
     * @return the rule
     * @throws IllegalArgumentException if the rule is empty, contains shell syntax, or names its program by
     *                                  a relative path; the message names the rule
     */
    public static CommandRule parse(String rule) {
        Objects.requireNonNull(rule, "rule");
        List<String> tokens;
        try {
            tokens = CommandLineParser.parse(rule);
        } catch (MeroToolsException e) {
            throw new IllegalArgumentException("Invalid command rule " + Messages.quote(rule) + ": "
                    + e.getMessage(), e);
        }
        if (ProgramName.of(tokens.get(0)) == ProgramName.RELATIVE) {
            throw new IllegalArgumentException("Invalid command rule " + Messages.quote(rule) + ": its program "
                    + Messages.quote(tokens.get(0)) + " is neither a bare name such as 'git' nor a normalised "
                    + "absolute path such as '/usr/bin/git'");
        }
        return new CommandRule(rule, tokens);
    }

    /**
     * The rule as it was written.
     *
     * @return the rule text
     */
    public String text() {
        return text;
    }

    /**
     * The rule's tokens, program first.
     *
     * @return an immutable, non-empty list
     */
    public List<String> tokens() {
        return tokens;
    }

    /**
     * The program token as written: a bare name or an absolute path.
     *
     * @return the program
     */
    public String program() {
        return tokens.get(0);
    }

    /**
     * The program's name without directories: {@code git} for both {@code git} and {@code /usr/bin/git}.
     *
     * @return the program name
     */
    public String programName() {
        return ProgramName.baseName(program());
    }

    /**
     * Tells whether this rule, as an allow rule, matches an argument vector: its tokens are a prefix of it.
     *
     * @param argv the command's arguments, program first
     * @return {@code true} if every token of the rule equals the argument at the same position
     */
    public boolean isPrefixOf(List<String> argv) {
        Objects.requireNonNull(argv, "argv");
        return argv.size() >= tokens.size() && argv.subList(0, tokens.size()).equals(tokens);
    }

    /**
     * Tells whether this rule, as a deny rule, blocks the program at {@code at} in an argument vector and
     * the arguments after it.
     *
     * @param argv         the command's arguments, program first
     * @param at           the index of the program to judge (0, or a wrapper's payload)
     * @param programNames the names the program goes by (as written and as its real file is named)
     * @return {@code true} if the rule blocks the command
     */
    boolean blocks(List<String> argv, int at, Set<String> programNames) {
        if (!programNames.contains(programName())) {
            return false;
        }
        List<String> arguments = argv.subList(at + 1, argv.size());
        List<String> operands = new ArrayList<>();
        for (String token : tokens.subList(1, tokens.size())) {
            if (token.equals("--")) {
                continue;
            }
            if (isOption(token)) {
                if (!hasOption(arguments, token)) {
                    return false;
                }
            } else {
                operands.add(token);
            }
        }
        return containsInOrder(nonOptions(arguments), operands);
    }

    private boolean hasOption(List<String> arguments, String ruleOption) {
        if (!ruleOption.startsWith("--")) {
            for (int k = 1; k < ruleOption.length(); k++) {
                if (!hasSpelling(arguments, "-" + ruleOption.charAt(k), null)) {
                    return false;
                }
            }
            return true;
        }
        int eq = ruleOption.indexOf('=');
        return eq < 0 ? hasSpelling(arguments, ruleOption, null)
                : hasSpelling(arguments, ruleOption.substring(0, eq), ruleOption.substring(eq + 1));
    }

    /** Whether an argument spells {@code option} or a synonym of it (with {@code value}, when one is given). */
    private boolean hasSpelling(List<String> arguments, String option, String value) {
        Set<String> spellings = OptionSynonyms.of(programName(), option);
        for (int k = 0; k < arguments.size(); k++) {
            String argument = arguments.get(k);
            if (!isOption(argument)) {
                continue;
            }
            if (argument.startsWith("--")) {
                int eq = argument.indexOf('=');
                String name = eq < 0 ? argument.substring(2) : argument.substring(2, eq);
                String given = eq < 0 ? (k + 1 < arguments.size() ? arguments.get(k + 1) : null)
                        : argument.substring(eq + 1);
                if (abbreviatesOneOf(name, spellings) && (value == null || value.equals(given))) {
                    return true;
                }
            } else if (value == null) {
                for (int c = 1; c < argument.length(); c++) {
                    if (spellings.contains("-" + argument.charAt(c))) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static boolean abbreviatesOneOf(String name, Set<String> spellings) {
        for (String spelling : spellings) {
            if (!name.isEmpty() && spelling.startsWith("--") && spelling.substring(2).startsWith(name)) {
                return true;
            }
        }
        return false;
    }

    private static List<String> nonOptions(List<String> arguments) {
        List<String> result = new ArrayList<>();
        for (String argument : arguments) {
            if (!isOption(argument) && !argument.equals("--")) {
                result.add(argument);
            }
        }
        return result;
    }

    private static boolean containsInOrder(List<String> haystack, List<String> needles) {
        int next = 0;
        for (String item : haystack) {
            if (next < needles.size() && item.equals(needles.get(next))) {
                next++;
            }
        }
        return next == needles.size();
    }

    private static boolean isOption(String token) {
        return token.length() > 1 && token.startsWith("-") && !token.equals("--");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CommandRule other && text.equals(other.text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return "CommandRule{" + Messages.quote(text) + "}";
    }
}
