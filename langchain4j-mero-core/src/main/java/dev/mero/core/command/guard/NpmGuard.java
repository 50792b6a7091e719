package dev.mero.core.command.guard;

import dev.mero.core.message.Messages;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code npm}: almost every subcommand that changes {@code node_modules} runs package scripts ({@code install},
 * {@code ci}, {@code run}, {@code exec}, {@code test}, {@code rebuild}, {@code pack}, {@code update}, ... and
 * their abbreviations), so only read-only subcommands are allowed: {@code ls}, {@code list}, {@code view},
 * {@code info}, {@code outdated}, {@code search}, {@code explain}, {@code why}, {@code query}, {@code fund},
 * {@code root}, {@code prefix}, {@code whoami}, {@code ping}, {@code audit} without {@code fix},
 * {@code config get|list} and {@code pkg get}. Options that name programs ({@code --script-shell},
 * {@code --node-options}, {@code -c}/{@code --call}, {@code --shell}, {@code --editor}, {@code --browser},
 * {@code --viewer}, {@code --git}) or other configuration files ({@code --userconfig},
 * {@code --globalconfig}) are refused in any abbreviation; options before the subcommand must be written
 * {@code --name=value}, so that a value is never mistaken for the subcommand.
 */
final class NpmGuard extends ProgramGuard {

    private static final Set<String> READ_ONLY = Set.of("ls", "list", "la", "ll", "view", "info", "show", "v",
            "outdated", "search", "s", "se", "find", "explain", "why", "query", "fund", "root", "prefix", "whoami",
            "ping", "audit", "config", "c", "get", "pkg");
    /** For subcommands that are read-only only with some first operands. */
    private static final Map<String, Set<String>> READ_ONLY_ACTIONS = Map.of(
            "config", Set.of("get", "list", "ls"), "c", Set.of("get", "list", "ls"), "pkg", Set.of("get"));
    private static final Set<String> FLAGS = Set.of("-g", "--global", "--json", "-s", "--silent", "-q", "--quiet",
            "-d", "--dd", "--ddd", "--verbose", "--long", "-l", "--parseable", "-p", "--offline", "--prefer-offline",
            "--all", "-a", "-v", "--version", "-h", "--help", "--usage");
    private static final List<String> DANGEROUS = List.of("script-shell", "node-options", "call", "shell", "editor",
            "browser", "viewer", "git", "userconfig", "globalconfig", "init-module");
    /** The dangerous names, and benign exact names that prefix one of them ({@code --global}). */
    private static final Set<String> KNOWN_LONG = Set.of("script-shell", "node-options", "call", "shell", "editor",
            "browser", "viewer", "git", "userconfig", "globalconfig", "init-module", "global");
    private static final OptionScan.Spec SPEC = OptionScan.Spec.gnu("", Set.of(), KNOWN_LONG);

    NpmGuard() {
        super(Set.of("npm", "npm-cli.js"));
    }

    @Override
    Optional<String> inspect(List<String> arguments) {
        OptionScan scan = OptionScan.of(arguments, SPEC);
        for (OptionScan.Option option : scan.options()) {
            if (option.isShort('c')) {
                return refuse("the option '-c' runs a command; leave it out");
            }
            for (String name : DANGEROUS) {
                if (option.isLong(name)) {
                    return refuse("the option " + shown(option) + " names a program or configuration for npm to "
                            + "use; leave it out");
                }
            }
        }
        int i = 0;
        while (i < arguments.size() && arguments.get(i).startsWith("-")) {
            String argument = arguments.get(i);
            if (!FLAGS.contains(argument) && !(argument.startsWith("--") && argument.contains("="))) {
                return refuse("the option " + Messages.quote(argument) + " comes before the subcommand; write it "
                        + "after the subcommand, or as --name=value");
            }
            i++;
        }
        if (i >= arguments.size()) {
            return Optional.empty();
        }
        String subcommand = arguments.get(i);
        List<String> rest = arguments.subList(i + 1, arguments.size());
        String first = rest.stream().filter(a -> !a.startsWith("-")).findFirst().orElse("");
        boolean readOnly = READ_ONLY.contains(subcommand)
                && (!READ_ONLY_ACTIONS.containsKey(subcommand) || READ_ONLY_ACTIONS.get(subcommand).contains(first))
                && !(subcommand.equals("audit") && rest.contains("fix"));
        if (!readOnly) {
            return refuse("'npm " + subcommand + "' can run package scripts or change files; only read-only "
                    + "subcommands are available (npm ls, view, outdated, search, explain, audit, config get)");
        }
        return Optional.empty();
    }
}
