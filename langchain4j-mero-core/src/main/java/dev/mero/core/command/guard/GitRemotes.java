package dev.mero.core.command.guard;

import dev.mero.core.message.Messages;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The repositories a git command reaches ({@code clone}, {@code fetch}, {@code pull}, {@code push},
 * {@code ls-remote}, {@code remote add/set-url}, {@code archive --remote}): one reached through {@code ssh}
 * ({@code ssh://}, {@code git+ssh://}, the scp-like {@code host:path}) or a remote helper
 * ({@code transport::address}, which runs {@code git-remote-<transport>}) is refused. {@code file://} URLs
 * and local paths are judged by the path check; other URLs need the network, which only a context that allows
 * it gives.
 */
final class GitRemotes {

    /** Options of fetch, pull and push whose value is the next argument. */
    private static final Set<String> TRANSFER_WITH_VALUE = Set.of("--depth", "--deepen", "--shallow-since",
            "--shallow-exclude", "-o", "--push-option", "--server-option", "--negotiation-tip", "--refmap", "-j",
            "--jobs", "--recurse-submodules-default", "--filter", "--repo", "--upload-pack", "--receive-pack",
            "--exec", "--origin", "--branch", "-b");

    private GitRemotes() {
    }

    /** Why the command's repositories are refused, or empty. */
    static Optional<String> check(String subcommand, List<String> rest) {
        for (String repository : repositories(subcommand, rest)) {
            if (RemoteOperands.usesRemoteHelper(repository)) {
                return Optional.of("the repository " + Messages.quote(repository) + " uses a remote helper, a "
                        + "program git runs for that transport; use a path inside the mounted entries or a plain URL");
            }
            if (RemoteOperands.runsRemoteShell(repository)) {
                return Optional.of("the repository " + Messages.quote(repository) + " is reached through ssh, a "
                        + "program git would start; use a path inside the mounted entries or an https URL");
            }
        }
        return Optional.empty();
    }

    private static List<String> repositories(String subcommand, List<String> rest) {
        List<String> repositories = new ArrayList<>();
        for (int i = 0; i < rest.size(); i++) {
            String argument = rest.get(i);
            if (argument.startsWith("--repo=") || argument.startsWith("--remote=")) {
                repositories.add(argument.substring(argument.indexOf('=') + 1));
            } else if ((argument.equals("--remote") || argument.equals("--repo")) && i + 1 < rest.size()) {
                repositories.add(rest.get(i + 1));
            }
        }
        switch (subcommand) {
            case "clone", "ls-remote" -> rest.stream().filter(a -> !a.startsWith("-")).forEach(repositories::add);
            case "fetch", "pull", "push" -> firstOperand(rest).ifPresent(repositories::add);
            case "remote" -> {
                int action = rest.indexOf("add") >= 0 ? rest.indexOf("add") : rest.indexOf("set-url");
                if (action >= 0) {
                    rest.subList(action + 1, rest.size()).stream().filter(a -> !a.startsWith("-"))
                            .forEach(repositories::add);
                }
            }
            default -> {
                // other subcommands name no repository to reach
            }
        }
        return repositories;
    }

    private static Optional<String> firstOperand(List<String> rest) {
        for (int i = 0; i < rest.size(); i++) {
            String argument = rest.get(i);
            if (argument.equals("--")) {
                return i + 1 < rest.size() ? Optional.of(rest.get(i + 1)) : Optional.empty();
            }
            if (!argument.startsWith("-")) {
                return Optional.of(argument);
            }
            if (TRANSFER_WITH_VALUE.contains(argument)) {
                i++;
            }
        }
        return Optional.empty();
    }
}
