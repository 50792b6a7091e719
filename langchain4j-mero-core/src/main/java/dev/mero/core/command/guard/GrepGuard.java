package dev.mero.core.command.guard;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code grep}: runs no programs, but {@code -R}/{@code --dereference-recursive} follows every symbolic link it
 * meets, which can lead outside the mounted entries; {@code -r} (which follows only links named on the
 * command line, and those are checked as path arguments) is the safe spelling.
 */
final class GrepGuard extends ProgramGuard {

    private static final OptionScan.Spec SPEC = OptionScan.Spec.gnu("ABCDdefm", Set.of(),
            Set.of("dereference-recursive"));

    GrepGuard() {
        super(Set.of("grep", "egrep", "fgrep", "rgrep"));
    }

    @Override
    Optional<String> inspect(List<String> arguments) {
        OptionScan.Option follows = OptionScan.of(arguments, SPEC).find("R", "dereference-recursive");
        if (follows != null) {
            return refuse("the option " + shown(follows) + " follows symbolic links, which can lead outside the "
                    + "mounted entries; use -r instead");
        }
        return Optional.empty();
    }
}
