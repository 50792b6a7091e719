package dev.mero.core.command.guard;

import dev.mero.core.message.Messages;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code find}: refuses the actions that run commands ({@code -exec}, {@code -execdir}, {@code -ok},
 * {@code -okdir}), delete files ({@code -delete}) or write files ({@code -fprint}, {@code -fprint0},
 * {@code -fprintf}, {@code -fls}), following symbolic links out of the mounted entries ({@code -L},
 * {@code -follow}), and start points read from a file ({@code -files0-from}). find's primaries are never
 * abbreviated, so exact names suffice.
 */
final class FindGuard extends ProgramGuard {

    private static final Set<String> RUNS = Set.of("-exec", "-execdir", "-ok", "-okdir");
    private static final Set<String> WRITES = Set.of("-fprint", "-fprint0", "-fprintf", "-fls");
    private static final Set<String> FOLLOWS = Set.of("-L", "-follow");

    FindGuard() {
        super(Set.of("find", "gfind", "bfs"));
    }

    @Override
    Optional<String> inspect(List<String> arguments) {
        for (String argument : arguments) {
            String shown = Messages.quote(argument);
            if (RUNS.contains(argument)) {
                return refuse("the action " + shown + " runs a command for each file; run find without it and "
                        + "work with the names it prints");
            }
            if (argument.equals("-delete")) {
                return refuse("the action " + shown + " deletes files; delete files with the file tools instead");
            }
            if (WRITES.contains(argument)) {
                return refuse("the action " + shown + " writes a file; let find print to standard output instead");
            }
            if (FOLLOWS.contains(argument)) {
                return refuse("the option " + shown + " makes find follow symbolic links, which can lead outside "
                        + "the mounted entries; leave it out");
            }
            if (argument.equals("-files0-from")) {
                return refuse("the option " + shown + " reads the start points from a file, which the policy "
                        + "cannot check; name the start points as arguments");
            }
        }
        return Optional.empty();
    }
}
