package dev.mero.core.command;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Deny-rule matching edges PIT showed untested: a trailing long option, a lone '-', rule identity. */
class CommandRuleMutationTest {

    @Test
    void an_unrelated_long_option_does_not_satisfy_a_short_option_of_the_rule() {
        CommandRule deny = CommandRule.parse("rm -f");

        assertThat(deny.blocks(List.of("rm", "x", "--verbose"), 0, Set.of("rm"))).isFalse();
        assertThat(deny.blocks(List.of("rm", "--verbose", "x"), 0, Set.of("rm"))).isFalse();
        assertThat(deny.blocks(List.of("rm", "x", "--force"), 0, Set.of("rm"))).isTrue();
    }

    @Test
    void a_long_option_rule_with_a_value_is_not_matched_by_the_option_as_the_last_argument() {
        CommandRule deny = CommandRule.parse("git push --repo=origin");

        assertThat(deny.blocks(List.of("git", "push", "--repo"), 0, Set.of("git"))).isFalse();
    }

    @Test
    void a_lone_dash_in_a_rule_is_an_operand_not_an_option() {
        CommandRule deny = CommandRule.parse("cat -");

        assertThat(deny.blocks(List.of("cat", "notes.txt"), 0, Set.of("cat"))).isFalse();
        assertThat(deny.blocks(List.of("cat", "-"), 0, Set.of("cat"))).isTrue();
        assertThat(deny.blocks(List.of("cat", "-n", "-"), 0, Set.of("cat"))).isTrue();
    }

    @Test
    void rules_are_equal_by_text() {
        CommandRule status = CommandRule.parse("git status");

        assertThat(status).isEqualTo(CommandRule.parse("git status")).hasSameHashCodeAs(CommandRule.parse("git status"));
        assertThat(status).isNotEqualTo(CommandRule.parse("git log")).isNotEqualTo("git status");
    }
}
