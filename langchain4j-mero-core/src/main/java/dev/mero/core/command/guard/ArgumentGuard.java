package dev.mero.core.command.guard;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Inspects the arguments of an allowed program and refuses those that would make it run code, write files or
 * read outside the policy: a rule {@code find} must not allow {@code find . -exec sh -c ... ;}.
 *
 * <pre>{@code
 * ArgumentGuard noCurlOutput = ArgumentGuard.forPrograms(Set.of("curl"), arguments ->
 *         arguments.stream().anyMatch(a -> a.equals("-o") || a.startsWith("--output"))
 *                 ? Optional.of("the option '-o' writes a file; let curl print to standard output instead")
 *                 : Optional.empty());
 * SecurityContext context = SecurityContext.builder()
 *         .allowCommand("curl")
 *         .argumentGuard(noCurlOutput)
 *         .build();
 * }</pre>
 *
 * <p>A guard is called for each name the program goes by (the name the command uses and, when it differs, the
 * name of the real file it resolves to, such as {@code awk} and {@code mawk}), and, for an explicitly allowed
 * wrapper such as {@code timeout}, for each program name inside its payload. A guard ignores programs it does
 * not know. Guards must be thread-safe and side-effect free; the built-in ones are in
 * {@link ArgumentGuards}.
 */
@FunctionalInterface
public interface ArgumentGuard {

    /**
     * Inspects one invocation.
     *
     * @param program   the program's name without directories, for example {@code tar}
     * @param arguments the arguments after the program, as the program will receive them
     * @return why the arguments are refused and what to do instead (a lower-case clause, such as
     *         {@code "the option '-delete' deletes files; delete files with the file tools instead"}), or
     *         empty to let them pass
     */
    Optional<String> check(String program, List<String> arguments);

    /**
     * A guard that inspects only the named programs.
     *
     * @param programs the program names the guard applies to
     * @param check    the inspection, given the arguments after the program
     * @return the guard
     */
    static ArgumentGuard forPrograms(Set<String> programs, Function<List<String>, Optional<String>> check) {
        Set<String> names = Set.copyOf(Objects.requireNonNull(programs, "programs"));
        Objects.requireNonNull(check, "check");
        return (program, arguments) -> names.contains(program) ? check.apply(arguments) : Optional.empty();
    }
}
