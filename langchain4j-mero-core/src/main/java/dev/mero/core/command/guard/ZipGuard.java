package dev.mero.core.command.guard;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code zip}: a recursive zip ({@code -r}, {@code -R}, {@code --recurse-paths}, {@code --recurse-patterns})
 * stores the contents of whatever the symbolic links inside a directory point to, which can lie outside the
 * mounted entries, unless {@code -y}/{@code --symlinks} stores the links as links; {@code -TT} and
 * {@code --unzip-command} run a command of your choice to test the archive.
 */
final class ZipGuard extends ProgramGuard {

    ZipGuard() {
        super(Set.of("zip"));
    }

    @Override
    Optional<String> inspect(List<String> arguments) {
        boolean recursive = false;
        boolean linksAsLinks = false;
        for (String argument : arguments) {
            if (argument.equals("--")) {
                break;
            }
            if (argument.startsWith("-TT") || argument.startsWith("--unzip-command")) {
                return refuse("the option " + dev.mero.core.message.Messages.quote(argument) + " runs a command of your "
                        + "choice; test the archive with -T alone");
            }
            if (argument.startsWith("--")) {
                recursive |= argument.startsWith("--recurse-p");
                linksAsLinks |= argument.equals("--symlinks");
            } else if (argument.startsWith("-")) {
                recursive |= argument.indexOf('r') >= 0 || argument.indexOf('R') >= 0;
                linksAsLinks |= argument.indexOf('y') >= 0;
            }
        }
        if (recursive && !linksAsLinks) {
            return refuse("a recursive zip follows the symbolic links it finds and stores what they point to, which "
                    + "can lie outside the mounted entries; add -y to store links as links");
        }
        return Optional.empty();
    }
}
