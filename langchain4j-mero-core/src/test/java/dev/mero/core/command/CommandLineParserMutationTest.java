package dev.mero.core.command;

import dev.mero.core.CommandDeniedException;
import dev.mero.core.InvalidInputException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Edges of the command-line parser that PIT showed untested: limits, reported indexes, assignment words. */
class CommandLineParserMutationTest {

    private static final String INVISIBLE_ADVICE = ", which is not supported. Commands may not contain control, "
            + "zero-width, bidirectional or non-ASCII space characters: retype the command with plain characters.";
    private static final String ASSIGNMENT_ADVICE = ", which is not supported. The environment of a command is "
            + "fixed by its context and cannot be set on the command line: run the command without it.";

    @Test
    void a_line_of_exactly_the_maximum_length_is_accepted() {
        String line = "echo " + "a".repeat(CommandLineParser.MAX_LENGTH - 5);

        assertThat(line).hasSize(CommandLineParser.MAX_LENGTH);
        assertThat(CommandLineParser.parse(line)).containsExactly("echo", "a".repeat(CommandLineParser.MAX_LENGTH - 5));
    }

    @Test
    void a_tab_inside_single_quotes_is_reported_at_its_own_index() {
        assertThatThrownBy(() -> CommandLineParser.parse("echo 'ab\tc'"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessage("Command 'echo \\'ab\\tc\\'' contains the control or invisible character U+0009 at index 8"
                        + INVISIBLE_ADVICE);
    }

    @Test
    void an_escaped_tab_is_reported_at_its_own_index() {
        assertThatThrownBy(() -> CommandLineParser.parse("echo a\\\tb"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessage("Command 'echo a\\\\\\tb' contains the control or invisible character U+0009 at index 7"
                        + INVISIBLE_ADVICE);
    }

    @Test
    void a_tab_inside_double_quotes_is_reported_at_its_own_index() {
        assertThatThrownBy(() -> CommandLineParser.parse("echo \"ab\tc\""))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessageContaining("character U+0009 at index 8,");
    }

    @Test
    void a_backslash_ending_an_unterminated_double_quote_is_an_input_error() {
        assertThatThrownBy(() -> CommandLineParser.parse("echo \"a\\"))
                .isInstanceOf(InvalidInputException.class)
                .hasMessage("Command 'echo \"a\\\\' has an unterminated double quote starting at index 5. Close the "
                        + "quote; inside single quotes nothing is special, so write a literal single quote as \\' "
                        + "outside quotes.");
    }

    @Test
    void a_lone_assignment_is_refused_naming_the_whole_word() {
        assertThatThrownBy(() -> CommandLineParser.parse("FOO=bar"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessage("Command 'FOO=bar' contains the leading environment assignment 'FOO=bar'" + ASSIGNMENT_ADVICE);
    }

    @Test
    void an_assignment_word_is_shown_whole_up_to_sixty_characters() {
        String sixty = "A=" + "x".repeat(58);
        assertThatThrownBy(() -> CommandLineParser.parse(sixty + " ls"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessage("Command '" + sixty + " ls' contains the leading environment assignment '" + sixty + "'"
                        + ASSIGNMENT_ADVICE);

        String sixtyOne = "A=" + "x".repeat(59);
        assertThatThrownBy(() -> CommandLineParser.parse(sixtyOne + " ls"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessage("Command '" + sixtyOne + " ls' contains the leading environment assignment '"
                        + sixtyOne.substring(0, 57) + "...'" + ASSIGNMENT_ADVICE);
    }

    @Test
    void a_leading_word_with_an_equals_sign_but_no_variable_name_is_a_program() {
        assertThat(CommandLineParser.parse("=x y")).containsExactly("=x", "y");
        assertThat(CommandLineParser.parse("1A=b y")).containsExactly("1A=b", "y");
        assertThat(CommandLineParser.parse("a-b=c y")).containsExactly("a-b=c", "y");
    }

    @Test
    void too_many_arguments_show_the_line_abbreviated_to_two_hundred_characters() {
        String many = "echo" + " a".repeat(CommandLineParser.MAX_ARGUMENTS);

        assertThatThrownBy(() -> CommandLineParser.parse(many))
                .isInstanceOf(InvalidInputException.class)
                .hasMessage("Command '" + many.substring(0, 197) + "...' has more than 256 arguments. Give fewer "
                        + "arguments.");
    }
}
