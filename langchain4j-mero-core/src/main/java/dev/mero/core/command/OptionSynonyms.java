package dev.mero.core.command;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Spellings that mean the same option to a program, so that a deny rule written one way blocks the others:
 * a deny {@code rm -rf} also blocks {@code rm -Rf} and {@code rm --recursive --force}.
 *
 * <p>Spellings are {@code -x} for a short option and {@code --name} for a long one. The table covers the
 * destructive options deny rules are usually written for; it cannot know every program, which is one reason a
 * deny rule only refines an allowlist and never replaces it.
 */
final class OptionSynonyms {

    private static final List<Set<String>> RECURSIVE_FORCE = List.of(
            Set.of("-r", "-R", "--recursive"), Set.of("-f", "--force"));

    private static final Map<String, List<Set<String>>> BY_PROGRAM = Map.of(
            "rm", List.of(Set.of("-r", "-R", "--recursive"), Set.of("-f", "--force"), Set.of("-d", "--dir")),
            "cp", RECURSIVE_FORCE,
            "scp", List.of(Set.of("-r")),
            "mv", List.of(Set.of("-f", "--force")),
            "ln", List.of(Set.of("-s", "--symbolic"), Set.of("-f", "--force")),
            "chmod", List.of(Set.of("-R", "--recursive")),
            "chown", List.of(Set.of("-R", "--recursive")),
            "chgrp", List.of(Set.of("-R", "--recursive")),
            "git", List.of(Set.of("-f", "--force", "--force-with-lease", "--force-if-includes"),
                    Set.of("-d", "--delete")));

    private OptionSynonyms() {
    }

    /** Every spelling equivalent to {@code option} for {@code program}, {@code option} included. */
    static Set<String> of(String program, String option) {
        for (Set<String> group : BY_PROGRAM.getOrDefault(program, List.of())) {
            if (group.contains(option)) {
                return group;
            }
        }
        return Set.of(option);
    }
}
