package dev.mero.core.command;

import dev.mero.core.CommandDeniedException;
import dev.mero.core.InvalidInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CommandLineParserTest {

    @Test
    void splits_on_blanks_and_honours_posix_quoting() {
        assertThat(CommandLineParser.parse("git commit -m 'first commit'"))
                .containsExactly("git", "commit", "-m", "first commit");
        assertThat(CommandLineParser.parse("grep  -e \"a b\"\tnotes.txt"))
                .containsExactly("grep", "-e", "a b", "notes.txt");
        assertThat(CommandLineParser.parse("echo a'b'\"c\"d")).containsExactly("echo", "abcd");
        assertThat(CommandLineParser.parse("echo '' \"\"")).containsExactly("echo", "", "");
    }

    @Test
    void quoted_metacharacters_are_literal() {
        assertThat(CommandLineParser.parse("grep 'a|b;c&d>e<f(g)h{i}j*k?l[m]$n`o!p#q~r' x"))
                .containsExactly("grep", "a|b;c&d>e<f(g)h{i}j*k?l[m]$n`o!p#q~r", "x");
        assertThat(CommandLineParser.parse("find . -name \"*.txt\"")).containsExactly("find", ".", "-name", "*.txt");
        assertThat(CommandLineParser.parse("echo \\; \\| \\$HOME")).containsExactly("echo", ";", "|", "$HOME");
    }

    @Test
    void double_quotes_escape_only_quote_backslash_dollar_and_backtick() {
        assertThat(CommandLineParser.parse("echo \"a\\\"b\\\\c\\$d\\`e\\nf\""))
                .containsExactly("echo", "a\"b\\c$d`e\\nf");
    }

    @Test
    void single_quotes_keep_backslashes() {
        assertThat(CommandLineParser.parse("printf 'a\\nb'")).containsExactly("printf", "a\\nb");
    }

    @Test
    void hash_and_tilde_inside_words_are_literal() {
        assertThat(CommandLineParser.parse("echo a#b c~d HEAD^ x=y")).containsExactly("echo", "a#b", "c~d", "HEAD^", "x=y");
    }

    @Test
    void pipe_is_refused_with_the_reason_and_what_to_do() {
        assertThatThrownBy(() -> CommandLineParser.parse("ls | wc -l"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessage("Command 'ls | wc -l' contains the shell operator '|', which is not supported. Commands "
                        + "are never run by a shell here: run each command in its own call and work with its output "
                        + "yourself. Put the character in single quotes if it is a literal argument.");
    }

    @Test
    void command_substitution_is_refused_with_exact_message() {
        assertThatThrownBy(() -> CommandLineParser.parse("echo $(id)"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessage("Command 'echo $(id)' contains the command substitution '$(', which is not supported. "
                        + "No shell runs the command, so nothing is substituted: run the inner command in its own "
                        + "call and pass its output as a literal argument.");
    }

    @ParameterizedTest
    @CsvSource(delimiterString = "=>", quoteCharacter = '"', value = {
            "\"git status; id\"                 => the shell operator ';'",
            "\"git status && id\"               => the shell operator '&&'",
            "\"git status || id\"               => the shell operator '||'",
            "\"git status & \"                  => the shell operator '&'",
            "\"git status |& cat\"              => the shell operator '|&'",
            "\"echo `id`\"                      => the command substitution '`'",
            "\"echo \\\"`id`\\\"\"              => the command substitution '`'",
            "\"echo \\\"$(id)\\\"\"             => the command substitution '$('",
            "\"echo $HOME\"                     => the variable or expansion '$HOME'",
            "\"echo ${HOME}\"                   => the variable or expansion '${'",
            "\"echo \\\"$HOME\\\"\"             => the variable or expansion '$HOME'",
            "\"echo $'\\x41'\"                  => the variable or expansion '$\\''",
            "\"echo $$\"                        => the variable or expansion '$$'",
            "\"echo a$\"                        => the variable or expansion '$'",
            "\"cat < /etc/passwd\"              => the redirection '<'",
            "\"echo x > out\"                   => the redirection '>'",
            "\"echo x >> out\"                  => the redirection '>>'",
            "\"echo x 2>&1\"                    => the redirection '>&'",
            "\"cat <<EOF\"                      => the redirection '<<'",
            "\"cat <<< text\"                   => the redirection '<<'",
            "\"diff <(ls) x\"                   => the redirection '<('",
            "\"(id)\"                           => the grouping or brace-expansion character '('",
            "\"{ id; }\"                        => the grouping or brace-expansion character '{'",
            "\"echo a{b,c}\"                    => the grouping or brace-expansion character '{'",
            "\"ls *.txt\"                       => the unquoted glob character '*'",
            "\"ls ?.txt\"                       => the unquoted glob character '?'",
            "\"ls [ab].txt\"                    => the unquoted glob character '['",
            "\"cat ~/.ssh/id_rsa\"              => the unquoted home-directory reference '~'",
            "\"ls --dir=~/x\"                   => the unquoted home-directory reference '~'",
            "\"ls a:~/x\"                       => the unquoted home-directory reference '~'",
            "\"git status #; rm -rf /\"         => the comment character '#' at the start of an argument",
            "\"echo !!\"                        => the history-expansion or negation character '!'",
            "\"PATH=/tmp git status\"           => the leading environment assignment 'PATH=/tmp'",
            "\"LD_PRELOAD=/x/evil.so ls\"       => the leading environment assignment 'LD_PRELOAD=/x/evil.so'",
    })
    void shell_syntax_is_refused_naming_the_construct(String line, String construct) {
        assertThatThrownBy(() -> CommandLineParser.parse(line))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessageStartingWith("Command ")
                .hasMessageContaining(" contains " + construct + ", which is not supported. ");
    }

    @Test
    void line_breaks_are_refused_even_inside_quotes() {
        assertThatThrownBy(() -> CommandLineParser.parse("git status\nrm -rf x"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessage("Command 'git status\\nrm -rf x' contains a line break (U+000A at index 10), which is not "
                        + "supported. A shell would start a second command there: run one command per call, on a "
                        + "single line.");
        assertThatThrownBy(() -> CommandLineParser.parse("echo 'a\rb'"))
                .hasMessageContaining("a line break (U+000D at index 7)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"git status\u200B", "git\u202Estatus", "echo \u0000", "echo 'a\u001Bb'",
            "git\u00A0status", "echo \uFEFF", "echo \"a\tb\"", "echo 'a\tb'", "echo a\\\tb"})
    void control_zero_width_bidi_and_odd_spaces_are_refused(String line) {
        assertThatThrownBy(() -> CommandLineParser.parse(line))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessageContaining("contains the control or invisible character U+");
    }

    @Test
    void a_quoted_assignment_is_just_a_program_name() {
        assertThat(CommandLineParser.parse("'A=b' x")).containsExactly("A=b", "x");
        assertThat(CommandLineParser.parse("git A=b")).containsExactly("git", "A=b");
    }

    @Test
    void empty_and_blank_lines_are_input_errors() {
        assertThatThrownBy(() -> CommandLineParser.parse(""))
                .isInstanceOf(InvalidInputException.class)
                .hasMessage("The command is empty. Give a command such as 'git status'.");
        assertThatThrownBy(() -> CommandLineParser.parse(" \t ")).isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> CommandLineParser.parse(null)).isInstanceOf(InvalidInputException.class);
    }

    @Test
    void unterminated_quotes_and_trailing_backslash_are_input_errors() {
        assertThatThrownBy(() -> CommandLineParser.parse("echo 'abc"))
                .isInstanceOf(InvalidInputException.class)
                .hasMessage("Command 'echo \\'abc' has an unterminated single quote starting at index 5. Close the "
                        + "quote; inside single quotes nothing is special, so write a literal single quote as \\' "
                        + "outside quotes.");
        assertThatThrownBy(() -> CommandLineParser.parse("echo \"abc"))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("unterminated double quote starting at index 5");
        assertThatThrownBy(() -> CommandLineParser.parse("echo abc\\"))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("ends with a backslash");
    }

    @Test
    void length_and_argument_count_are_bounded() {
        String longLine = "echo " + "a".repeat(CommandLineParser.MAX_LENGTH);
        assertThatThrownBy(() -> CommandLineParser.parse(longLine))
                .isInstanceOf(InvalidInputException.class)
                .hasMessage("The command is " + longLine.length() + " characters long; the limit is 8192. Give a "
                        + "shorter command.");
        String many = "echo" + " a".repeat(CommandLineParser.MAX_ARGUMENTS);
        assertThatThrownBy(() -> CommandLineParser.parse(many))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("has more than 256 arguments");
        String exactly = "echo" + " a".repeat(CommandLineParser.MAX_ARGUMENTS - 1);
        assertThat(CommandLineParser.parse(exactly)).hasSize(CommandLineParser.MAX_ARGUMENTS);
    }

    @Test
    void result_is_immutable() {
        List<String> argv = CommandLineParser.parse("git status");
        assertThatThrownBy(() -> argv.add("x")).isInstanceOf(UnsupportedOperationException.class);
    }
}
