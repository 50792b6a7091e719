package dev.mero.core.command;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CommandRuleTest {

    @Test
    void a_rule_is_parsed_with_command_line_quoting() {
        CommandRule rule = CommandRule.parse("git log --format='%H %s'");
        assertThat(rule.tokens()).containsExactly("git", "log", "--format=%H %s");
        assertThat(rule.program()).isEqualTo("git");
        assertThat(rule.programName()).isEqualTo("git");
        assertThat(rule.text()).isEqualTo("git log --format='%H %s'");
        assertThat(CommandRule.parse("/usr/bin/git").programName()).isEqualTo("git");
        assertThat(rule).isEqualTo(CommandRule.parse("git log --format='%H %s'")).hasToString(
                "CommandRule{'git log --format=\\'%H %s\\''}");
    }

    @Test
    void prefix_matching_is_token_by_token_and_exact() {
        CommandRule rule = CommandRule.parse("git status");
        assertThat(rule.isPrefixOf(List.of("git", "status"))).isTrue();
        assertThat(rule.isPrefixOf(List.of("git", "status", "-s"))).isTrue();
        assertThat(rule.isPrefixOf(List.of("git", "statusx"))).isFalse();
        assertThat(rule.isPrefixOf(List.of("git"))).isFalse();
        assertThat(rule.isPrefixOf(List.of("/usr/bin/git", "status"))).isFalse();
        assertThatThrownBy(() -> rule.isPrefixOf(null)).isInstanceOf(NullPointerException.class).hasMessage("argv");
    }

    @Test
    void deny_matching_compares_program_names_and_options_as_sets() {
        CommandRule deny = CommandRule.parse("rm -rf");
        assertThat(deny.blocks(List.of("/bin/rm", "-f", "x", "-r"), 0, Set.of("rm"))).isTrue();
        assertThat(deny.blocks(List.of("rm", "-r", "x"), 0, Set.of("rm"))).isFalse();
        assertThat(deny.blocks(List.of("unlink", "-rf"), 0, Set.of("unlink"))).isFalse();
        assertThat(deny.blocks(List.of("timeout", "5", "rm", "-fr", "x"), 2, Set.of("rm"))).isTrue();
    }

    @Test
    void deny_long_options_with_values_and_operands() {
        CommandRule deny = CommandRule.parse("git config --global");
        assertThat(deny.blocks(List.of("git", "config", "--glob", "a", "b"), 0, Set.of("git"))).isTrue();
        assertThat(deny.blocks(List.of("git", "config", "a", "b"), 0, Set.of("git"))).isFalse();
        CommandRule withValue = CommandRule.parse("git push --repo=origin");
        assertThat(withValue.blocks(List.of("git", "push", "--repo=origin"), 0, Set.of("git"))).isTrue();
        assertThat(withValue.blocks(List.of("git", "push", "--repo", "origin"), 0, Set.of("git"))).isTrue();
        assertThat(withValue.blocks(List.of("git", "push", "--repo=other"), 0, Set.of("git"))).isFalse();
    }

    @Test
    void malformed_rules_name_themselves() {
        assertThatThrownBy(() -> CommandRule.parse("./x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid command rule './x': its program './x' is neither a bare name such as 'git' nor a "
                        + "normalised absolute path such as '/usr/bin/git'");
        assertThatThrownBy(() -> CommandRule.parse("ls | wc"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Invalid command rule 'ls | wc': Command 'ls | wc' contains the shell "
                        + "operator '|'");
        assertThatThrownBy(() -> CommandRule.parse(""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid command rule '': The command is empty. Give a command such as 'git status'.");
    }
}
