package dev.mero.core.command.guard;

import dev.mero.core.message.Messages;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/** A built-in guard for a few program names; subclasses inspect the arguments. */
abstract class ProgramGuard implements ArgumentGuard {

    private final Set<String> programs;

    ProgramGuard(Set<String> programs) {
        this.programs = Set.copyOf(programs);
    }

    @Override
    public final Optional<String> check(String program, List<String> arguments) {
        return programs.contains(program) ? inspect(arguments) : Optional.empty();
    }

    /** Why the arguments are refused, or empty. */
    abstract Optional<String> inspect(List<String> arguments);

    /** An option as written, quoted for a message: {@code '--to-com'}, {@code '-I'}. */
    static String shown(OptionScan.Option option) {
        return Messages.quote((option.longForm() ? "--" : "-") + option.name());
    }

    /** A refusal reason. */
    static Optional<String> refuse(String reason) {
        return Optional.of(reason);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + programs;
    }
}
