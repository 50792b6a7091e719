package dev.mero.core.command.guard;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code sort}: refuses {@code --compress-program} (runs a program; any abbreviation such as
 * {@code --compress-prog} or {@code --com}), {@code -o}/{@code --output} (writes a file) and
 * {@code --files0-from} (reads the names of the files to sort from a file the policy cannot check).
 */
final class SortGuard extends ProgramGuard {

    private static final Set<String> WITH_VALUE = Set.of("output", "compress-program", "files0-from", "key",
            "field-separator", "buffer-size", "temporary-directory", "parallel", "random-source", "sort",
            "batch-size");
    private static final OptionScan.Spec SPEC = OptionScan.Spec.gnu("kotST", WITH_VALUE, WITH_VALUE);

    SortGuard() {
        super(Set.of("sort"));
    }

    @Override
    Optional<String> inspect(List<String> arguments) {
        OptionScan scan = OptionScan.of(arguments, SPEC);
        OptionScan.Option runs = scan.find("", "compress-program");
        if (runs != null) {
            return refuse("the option " + shown(runs) + " makes sort run a compression program; leave it out");
        }
        OptionScan.Option writes = scan.find("o", "output");
        if (writes != null) {
            return refuse("the option " + shown(writes) + " writes a file; let sort print to standard output "
                    + "instead");
        }
        OptionScan.Option reads = scan.find("", "files0-from");
        if (reads != null) {
            return refuse("the option " + shown(reads) + " reads file names from a file, which the policy cannot "
                    + "check; name the files as arguments");
        }
        return Optional.empty();
    }
}
