package dev.mero.core.command.guard;

import dev.mero.core.message.Messages;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code git}: refuses what makes git run other programs or write files outside the repository.
 * <ul>
 *   <li>global options before the subcommand: {@code -c} and {@code --config-env} (configuration can name
 *       programs: {@code core.pager}, {@code core.sshCommand}, {@code core.fsmonitor}, {@code alias.x=!cmd},
 *       ...), {@code --exec-path=dir}, and {@code -p}/{@code --paginate} (a pager can run commands);</li>
 *   <li>subcommands that run external tools or hooks ({@code difftool}, {@code mergetool},
 *       {@code filter-branch}, {@code instaweb}, {@code daemon}, {@code send-email}, {@code hook},
 *       {@code credential*}, {@code remote-*}, {@code upload-pack}, {@code receive-pack}, ...),
 *       {@code submodule} other than {@code status} and {@code summary}, {@code bisect run},
 *       {@code maintenance start}, {@code help} with a topic and {@code --help} (both start {@code man} or a
 *       browser), and {@code config} other than reading it;</li>
 *   <li>options that run programs: {@code --upload-pack}, {@code --receive-pack}, {@code --exec} (and
 *       {@code -u} for clone and ls-remote), {@code --ext-diff}, {@code --textconv}, {@code rebase -x/--exec}
 *       and {@code -i/--interactive}, {@code grep -O/--open-files-in-pager}, {@code clone -c/--config} and
 *       {@code --template}; {@code ext::} and {@code fd::} remote URLs;</li>
 *   <li>options that write files: {@code --output} (diff family, archive), {@code -o} and
 *       {@code --output-directory} (format-patch, archive), {@code apply --unsafe-paths};</li>
 *   <li>{@code --separate-git-dir} ({@code init}, {@code clone}: a repository directory not named
 *       {@code .git}), {@code --pathspec-from-file} (paths the policy cannot check), and
 *       {@code --recurse-submodules}/{@code --recursive} when cloning or fetching (submodule URLs the policy
 *       cannot check);</li>
 *   <li>repositories reached through ssh or a remote helper ({@link GitRemotes}).</li>
 * </ul>
 * Long options are matched in every abbreviation git's option parser accepts ({@code --upload-p},
 * {@code --ext-d}, {@code --outp}).
 *
 * <p>A repository's own configuration and hooks are not in the arguments: an agent that could write
 * {@code .git/config} could make git run programs (an external diff, a filter, a textconv). The path core
 * therefore refuses WRITE and DELETE inside any {@code .git} directory, this guard refuses {@code --git-dir},
 * {@code --work-tree} and {@code --bare} (which would point git at a directory the agent wrote), and the
 * default runner sets {@code safe.bareRepository=explicit} so that a bare repository the agent wrote is never
 * discovered, and overrides {@code core.hooksPath} and {@code core.fsmonitor}. Every checked command carries
 * {@code GIT_CEILING_DIRECTORIES} (the parent of each entry's directory) and
 * {@code GIT_DISCOVERY_ACROSS_FILESYSTEM=0}, so git never finds a repository above a mount, and the path core
 * protects every repository directory, whatever its name, like {@code .git}.
 */
final class GitGuard extends ProgramGuard {

    /** Global options whose value is the next argument when not given with {@code =}. */
    private static final Set<String> GLOBAL_WITH_VALUE = Set.of("-C", "--git-dir", "--work-tree", "--namespace",
            "--super-prefix", "--attr-source", "--list-cmds");

    private static final Set<String> BLOCKED_SUBCOMMANDS = Set.of("difftool", "mergetool", "filter-branch",
            "filter-repo", "instaweb", "web--browse", "daemon", "send-email", "imap-send", "shell", "hook",
            "upload-pack", "receive-pack", "upload-archive", "svn", "p4", "cvsimport", "cvsserver",
            "cvsexportcommit", "archimport", "quiltimport", "sh-setup", "sh-i18n", "mergetool--lib", "citool", "gui",
            "jump", "bugreport");

    /** Long options that run programs, whatever the subcommand. */
    private static final List<String> RUNS_ANYWHERE = List.of("upload-pack", "receive-pack", "exec", "ext-diff",
            "textconv", "open-files-in-pager", "template");
    /** Long options that write a file, whatever the subcommand. */
    private static final List<String> WRITES_ANYWHERE = List.of("output", "output-directory", "unsafe-paths");
    /** Every long name the checks compare against, plus benign exact names that prefix one of them. */
    private static final Set<String> KNOWN_LONG = Set.of("upload-pack", "receive-pack", "exec", "ext-diff",
            "textconv", "open-files-in-pager", "template", "output", "output-directory", "unsafe-paths", "text",
            "config", "interactive", "help", "separate-git-dir", "pathspec-from-file", "recurse-submodules",
            "recursive");
    /** Subcommands that fetch from another repository, where submodules would be cloned from its URLs. */
    private static final Set<String> FETCHING = Set.of("clone", "fetch", "pull", "push");

    /** Short options that run programs or write files, by subcommand. */
    private static final Map<String, String> DANGEROUS_SHORT = Map.of(
            "clone", "uc", "ls-remote", "u", "rebase", "xi", "grep", "O", "format-patch", "o", "archive", "o");

    private static final Set<String> CONFIG_READ_ACTIONS = Set.of("--get", "--get-all", "--get-regexp",
            "--get-urlmatch", "--get-color", "--get-colorbool", "--list", "-l");
    private static final Set<String> CONFIG_READ_OPTIONS = Set.of("--global", "--system", "--local", "--worktree",
            "--show-origin", "--show-scope", "--name-only", "--null", "-z", "--bool", "--int", "--bool-or-int",
            "--path", "--expiry-date", "--includes", "--no-includes", "--file", "-f", "--blob", "--all", "--regexp",
            "--url", "--value", "--fixed-value", "--show-names");

    GitGuard() {
        super(Set.of("git"));
    }

    @Override
    Optional<String> inspect(List<String> arguments) {
        int i = 0;
        while (i < arguments.size() && arguments.get(i).startsWith("-")) {
            String argument = arguments.get(i);
            if (argument.startsWith("-c") || argument.startsWith("--config")) {
                return refuse("the option " + Messages.quote(argument) + " sets configuration, which can name "
                        + "programs for git to run (core.pager, core.sshCommand, core.fsmonitor, alias.*); leave "
                        + "it out");
            }
            if (argument.equals("--bare") || argument.startsWith("--git-dir") || argument.startsWith("--work-tree")) {
                return refuse("the option " + Messages.quote(argument) + " makes git use a repository directory "
                        + "the agent may have written, whose configuration can name programs for git to run; run git "
                        + "in the repository's working directory instead");
            }
            if (argument.startsWith("--exec-path=")) {
                return refuse("the option '--exec-path=...' changes where git finds the programs it runs; leave it "
                        + "out");
            }
            if (argument.equals("-p") || argument.equals("--paginate")) {
                return refuse("the option " + Messages.quote(argument) + " starts a pager, which can run commands; "
                        + "leave it out, the output is returned to you");
            }
            if (argument.equals("--help") && i + 1 < arguments.size()) {
                return manPage();
            }
            i += GLOBAL_WITH_VALUE.contains(argument) ? 2 : 1;
        }
        if (i >= arguments.size()) {
            return Optional.empty();
        }
        String subcommand = arguments.get(i);
        List<String> rest = arguments.subList(i + 1, arguments.size());
        Optional<String> refusal = subcommand(subcommand, rest);
        if (refusal.isEmpty()) {
            refusal = options(subcommand, rest);
        }
        return refusal.isPresent() ? refusal : GitRemotes.check(subcommand, rest);
    }

    private Optional<String> subcommand(String subcommand, List<String> rest) {
        if (BLOCKED_SUBCOMMANDS.contains(subcommand) || subcommand.startsWith("credential")
                || subcommand.startsWith("remote-")) {
            return refuse("the subcommand " + Messages.quote(subcommand) + " runs other programs or hooks; it is "
                    + "not available");
        }
        String first = rest.isEmpty() ? "" : rest.get(0);
        return switch (subcommand) {
            case "submodule" -> first.isEmpty() || first.equals("status") || first.equals("summary")
                    ? Optional.empty()
                    : refuse("'git submodule " + first + "' can clone and run commands; only 'git submodule "
                    + "status' and 'git submodule summary' are available");
            case "bisect" -> first.equals("run")
                    ? refuse("'git bisect run' runs a command; run the bisect steps one by one") : Optional.empty();
            case "maintenance" -> first.equals("start")
                    ? refuse("'git maintenance start' schedules background jobs; run 'git maintenance run' instead")
                    : Optional.empty();
            case "help" -> rest.isEmpty() || rest.stream().allMatch(a -> a.equals("-a") || a.equals("-g")
                    || a.equals("--all") || a.equals("--guides")) ? Optional.empty() : manPage();
            case "config" -> config(rest);
            default -> Optional.empty();
        };
    }

    private Optional<String> options(String subcommand, List<String> rest) {
        String dangerousShort = DANGEROUS_SHORT.getOrDefault(subcommand, "");
        for (String argument : rest) {
            if (argument.equals("--")) {
                break;
            }
            if (argument.startsWith("ext::") || argument.startsWith("fd::")) {
                return refuse("the remote " + Messages.quote(argument) + " uses a transport that runs a command; "
                        + "use a plain path or URL");
            }
            if (argument.equals("--help")) {
                return manPage();
            }
            if (argument.startsWith("--")) {
                Optional<String> refusal = longOption(subcommand, argument);
                if (refusal.isPresent()) {
                    return refusal;
                }
            } else if (argument.startsWith("-")) {
                for (int k = 1; k < argument.length(); k++) {
                    if (dangerousShort.indexOf(argument.charAt(k)) >= 0) {
                        return refuse("the option " + Messages.quote("-" + argument.charAt(k)) + " of 'git "
                                + subcommand + "' runs a program or writes a file; leave it out");
                    }
                }
            }
        }
        return Optional.empty();
    }

    private Optional<String> longOption(String subcommand, String argument) {
        OptionScan.Option option = OptionScan.of(List.of(argument),
                OptionScan.Spec.gnu("", Set.of(), KNOWN_LONG)).options().get(0);
        for (String name : RUNS_ANYWHERE) {
            if (option.isLong(name)) {
                return refuse("the option " + shown(option) + " makes git run another program; leave it out");
            }
        }
        for (String name : WRITES_ANYWHERE) {
            if (option.isLong(name)) {
                return refuse("the option " + shown(option) + " writes a file; let git print to standard output "
                        + "instead");
            }
        }
        if (option.isLong("separate-git-dir")) {
            return refuse("the option " + shown(option) + " puts the repository in a directory not named '.git', "
                    + "whose configuration could then be written to make git run programs; leave it out");
        }
        if (option.isLong("pathspec-from-file")) {
            return refuse("the option " + shown(option) + " reads the paths to work on from a file, whose contents "
                    + "the policy cannot check; name the paths as arguments");
        }
        boolean recursive = option.isLong("recurse-submodules") || subcommand.equals("clone")
                && option.isLong("recursive");
        if (FETCHING.contains(subcommand) && recursive && !"no".equals(option.value())) {
            return refuse("the option " + shown(option) + " clones or fetches submodules from the URLs a repository "
                    + "names, which the policy cannot check; leave it out");
        }
        boolean rebaseInteractive = subcommand.equals("rebase") && option.isLong("interactive");
        boolean cloneConfig = subcommand.equals("clone") && option.isLong("config");
        if (rebaseInteractive || cloneConfig) {
            return refuse("the option " + shown(option) + " of 'git " + subcommand + "' can make git run programs; "
                    + "leave it out");
        }
        return Optional.empty();
    }

    /** Only reading configuration is allowed: {@code git config --get x}, {@code git config list}. */
    private static Optional<String> config(List<String> rest) {
        boolean reads = !rest.isEmpty() && (rest.get(0).equals("get") || rest.get(0).equals("list"));
        for (String argument : rest) {
            String name = argument.contains("=") ? argument.substring(0, argument.indexOf('=')) : argument;
            if (CONFIG_READ_ACTIONS.contains(name)) {
                reads = true;
            } else if (argument.startsWith("-") && !CONFIG_READ_OPTIONS.contains(name)
                    && !name.equals("--type") && !name.equals("--default")) {
                return configWrite();
            }
        }
        return reads ? Optional.empty() : configWrite();
    }

    private static Optional<String> configWrite() {
        return refuse("only reading configuration is available ('git config --get <name>', 'git config --list'), "
                + "because configuration can name programs for git to run");
    }

    private static Optional<String> manPage() {
        return refuse("'--help' and 'git help <command>' start a manual page viewer or browser; use "
                + "'git <command> -h' for a summary of its options");
    }
}
