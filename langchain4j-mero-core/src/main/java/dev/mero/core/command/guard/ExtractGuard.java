package dev.mero.core.command.guard;

import dev.mero.core.message.Messages;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Programs that write files named inside their input, which the path check never sees (an archive can name
 * {@code .git/config} or {@code ../x}), like {@code tar -x}: {@code unzip} unless it only lists, tests or
 * prints ({@code -l}, {@code -t}, {@code -v}, {@code -p}, {@code -z}, {@code -Z}), {@code 7z}/{@code 7za}/
 * {@code 7zr} {@code x} and {@code e} (and {@code a}/{@code u} without {@code -snl}, which follow links),
 * {@code ar x}, {@code cpio -i}/{@code --extract} and {@code -p}/
 * {@code --pass-through}, and {@code patch} without a file to patch (it would take the names from the patch).
 */
final class ExtractGuard extends ProgramGuard {

    private static final String REASON = "writes files whose names come from inside its input, which the policy "
            + "cannot check";

    private final String program;

    private ExtractGuard(String program) {
        super(Set.of(program));
        this.program = program;
    }

    /** One guard per program, in a stable order. */
    static List<ArgumentGuard> all() {
        return List.of(new ExtractGuard("unzip"), new ExtractGuard("7z"), new ExtractGuard("7za"),
                new ExtractGuard("7zr"), new ExtractGuard("ar"), new ExtractGuard("cpio"), new ExtractGuard("patch"));
    }

    @Override
    Optional<String> inspect(List<String> arguments) {
        switch (program) {
            case "unzip" -> {
                boolean readOnly = arguments.stream().anyMatch(a -> a.startsWith("-") && !a.startsWith("--")
                        && a.chars().anyMatch(c -> "ltvpzZ".indexOf(c) >= 0));
                return readOnly ? Optional.empty() : refuse("'unzip' without -l, -t or -p " + REASON
                        + "; list the archive with 'unzip -l' or print a member with 'unzip -p'");
            }
            case "7z", "7za", "7zr" -> {
                String command = arguments.stream().filter(a -> !a.startsWith("-")).findFirst().orElse("");
                if (command.equals("x") || command.equals("e")) {
                    return refuse("'" + program + " " + command + "' " + REASON + "; list it with '" + program + " l'");
                }
                boolean adds = command.equals("a") || command.equals("u");
                return adds && !arguments.contains("-snl") ? refuse("'" + program + " " + command + "' follows the "
                        + "symbolic links it finds and stores what they point to, which can lie outside the mounted "
                        + "entries; add -snl to store links as links") : Optional.empty();
            }
            case "ar" -> {
                String key = arguments.isEmpty() ? "" : arguments.get(0);
                return key.indexOf('x') >= 0 ? refuse("'ar x' " + REASON + "; list it with 'ar t'") : Optional.empty();
            }
            case "cpio" -> {
                for (String argument : arguments) {
                    boolean cluster = argument.startsWith("-") && !argument.startsWith("--");
                    if (cluster && (argument.indexOf('i') >= 0 || argument.indexOf('p') >= 0)
                            || argument.startsWith("--ext") || argument.startsWith("--pass")) {
                        return refuse("the option " + Messages.quote(argument) + " " + REASON + "; list the "
                                + "archive with 'cpio -t'");
                    }
                }
                return Optional.empty();
            }
            default -> {
                return patch(arguments);
            }
        }
    }

    /** {@code patch}: the file to patch must be named, as an operand. */
    private static Optional<String> patch(List<String> arguments) {
        boolean optionsEnded = false;
        for (int i = 0; i < arguments.size(); i++) {
            String argument = arguments.get(i);
            if (!optionsEnded && argument.equals("--")) {
                optionsEnded = true;
            } else if (optionsEnded || !argument.startsWith("-")) {
                return Optional.empty();
            } else if (argument.length() == 2 && "iopdDrBYzbFgVx".indexOf(argument.charAt(1)) >= 0) {
                i++; // a short option whose value is the next argument
            }
        }
        return refuse("'patch' without the file to patch " + REASON + "; name the file: patch -i changes.diff "
                + "file.txt");
    }
}
