package dev.mero.core.command;

import dev.mero.core.CommandDeniedException;
import dev.mero.core.message.Messages;

/**
 * The shell constructs a command line may not contain, each with the message that tells a model why and what
 * to do instead. No shell ever runs a command here, so anything a shell would interpret is refused rather than
 * passed on literally: the model would otherwise believe it had piped, redirected or expanded something.
 */
enum ShellSyntax {

    /** {@code ;}, {@code &}, {@code &&}, {@code |}, {@code ||}. */
    OPERATOR("the shell operator %s",
            "Commands are never run by a shell here: run each command in its own call and work with its output "
                    + "yourself. Put the character in single quotes if it is a literal argument."),
    /** A backtick or {@code $(}. */
    COMMAND_SUBSTITUTION("the command substitution %s",
            "No shell runs the command, so nothing is substituted: run the inner command in its own call and pass "
                    + "its output as a literal argument."),
    /** {@code $VAR}, {@code ${...}}, {@code $'...'}, a lone {@code $}. */
    VARIABLE("the variable or expansion %s",
            "No shell runs the command, so nothing is expanded: write the value literally, or put the argument in "
                    + "single quotes if you mean a literal '$'."),
    /** {@code <}, {@code >}, here-documents, here-strings. */
    REDIRECTION("the redirection %s",
            "No shell runs the command, so nothing is redirected: the command's output is returned to you, and "
                    + "files are written with the file tools. Put the character in single quotes if it is a literal "
                    + "argument."),
    /** {@code ( )} and {@code { }}. */
    GROUP("the grouping or brace-expansion character %s",
            "No shell runs the command, so nothing is grouped or expanded: run a single command, and put the "
                    + "character in single quotes if it is a literal argument."),
    /** Unquoted {@code * ? [}. */
    GLOB("the unquoted glob character %s",
            "No shell runs the command, so file names are not expanded: list the files with the file tools and "
                    + "name them, or put the pattern in single quotes if the program itself expects it (for example "
                    + "find . -name '*.txt')."),
    /** An unquoted {@code ~} where a shell would expand it. */
    TILDE("the unquoted home-directory reference %s",
            "No shell runs the command, so '~' is not expanded: give the path relative to the working directory."),
    /** An unquoted {@code #} at the start of a word. */
    COMMENT("the comment character %s at the start of an argument",
            "A shell would ignore the rest of the line: leave the comment out, or put the argument in single "
                    + "quotes if it is literal."),
    /** An unquoted {@code !}. */
    HISTORY("the history-expansion or negation character %s",
            "No shell runs the command: put the argument in single quotes if the '!' is literal."),
    /** A newline or carriage return, even quoted. */
    LINE_BREAK("a line break (%s)",
            "A shell would start a second command there: run one command per call, on a single line."),
    /** Control, zero-width, bidirectional and non-ASCII space characters, even quoted. */
    INVISIBLE("the control or invisible character %s",
            "Commands may not contain control, zero-width, bidirectional or non-ASCII space characters: retype "
                    + "the command with plain characters."),
    /** A leading {@code NAME=value}. */
    ASSIGNMENT("the leading environment assignment %s",
            "The environment of a command is fixed by its context and cannot be set on the command line: run the "
                    + "command without it.");

    private final String what;
    private final String advice;

    ShellSyntax(String what, String advice) {
        this.what = what;
        this.advice = advice;
    }

    /** The refusal for {@code line}, where {@code shown} names the offending text as the message shows it. */
    CommandDeniedException refusal(String line, String shown) {
        return new CommandDeniedException("Command " + Messages.quote(line) + " contains "
                + String.format(what, shown) + ", which is not supported. " + advice);
    }
}
