package dev.mero.core.command.guard;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code rg} (ripgrep): refuses {@code --pre} and {@code --pre-glob} (a preprocessor command run on every
 * file), {@code -z}/{@code --search-zip} (runs decompression programs), {@code --hostname-bin} (runs a
 * program), and {@code -L}/{@code --follow} (follows symbolic links out of the mounted entries), in any
 * grouping and abbreviation.
 */
final class RipgrepGuard extends ProgramGuard {

    private static final OptionScan.Spec SPEC = OptionScan.Spec.gnu("ABCEMTdefgjmrt",
            Set.of("pre", "pre-glob", "hostname-bin"), Set.of("pre", "pre-glob", "search-zip", "hostname-bin",
                    "follow"));

    RipgrepGuard() {
        super(Set.of("rg", "ripgrep"));
    }

    @Override
    Optional<String> inspect(List<String> arguments) {
        OptionScan scan = OptionScan.of(arguments, SPEC);
        OptionScan.Option runs = scan.find("z", "pre", "pre-glob", "search-zip", "hostname-bin");
        if (runs != null) {
            return refuse("the option " + shown(runs) + " makes rg run other programs (preprocessors or "
                    + "decompressors); search the files as they are");
        }
        OptionScan.Option follows = scan.find("L", "follow");
        if (follows != null) {
            return refuse("the option " + shown(follows) + " makes rg follow symbolic links, which can lead outside "
                    + "the mounted entries; leave it out");
        }
        return Optional.empty();
    }
}
