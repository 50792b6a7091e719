package dev.mero.core.command.guard;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code sed}: refuses in-place editing ({@code -i}, {@code --in-place}, any abbreviation: it writes files),
 * script files ({@code -f}, {@code --file}: their content cannot be checked), options the guard does not know
 * (it could otherwise misread which argument is the script), and scripts with the commands {@code e},
 * {@code w}, {@code W}, {@code r}, {@code R} or the {@code s} flags {@code e} and {@code w} (see
 * {@link SedScript}). The scripts are the {@code -e}/{@code --expression} values, or else the first operand.
 */
final class SedGuard extends ProgramGuard {

    private static final Set<String> LONG_NAMES = Set.of("expression", "file", "in-place", "line-length",
            "null-data", "zero-terminated", "quiet", "silent", "debug", "posix", "regexp-extended", "separate",
            "sandbox", "unbuffered", "binary", "follow-symlinks", "help", "version");
    private static final OptionScan.Spec SPEC = new OptionScan.Spec("efl", "i",
            Set.of("expression", "file", "line-length"), LONG_NAMES, false);
    private static final String SHORT_NAMES = "efilnErsuzb";

    SedGuard() {
        super(Set.of("sed", "gsed"));
    }

    @Override
    Optional<String> inspect(List<String> arguments) {
        OptionScan scan = OptionScan.of(arguments, SPEC);
        OptionScan.Option inPlace = scan.find("i", "in-place");
        if (inPlace != null) {
            return refuse("the option " + shown(inPlace) + " edits files in place; let sed print the result and "
                    + "write files with the file tools");
        }
        OptionScan.Option file = scan.find("f", "file");
        if (file != null) {
            return refuse("the option " + shown(file) + " reads the sed script from a file, which the guard cannot "
                    + "check; give the script with -e");
        }
        List<String> scripts = new ArrayList<>();
        for (OptionScan.Option option : scan.options()) {
            boolean known = option.longForm() ? option.resolved() != null
                    : SHORT_NAMES.indexOf(option.name().charAt(0)) >= 0;
            if (!known) {
                return refuse("the option " + shown(option) + " is not one the sed guard knows; leave it out");
            }
            if (option.isShort('e') || option.isLong("expression")) {
                scripts.add(option.value() == null ? "" : option.value());
            }
        }
        if (scripts.isEmpty() && !scan.operands().isEmpty()) {
            scripts.add(scan.operands().get(0));
        }
        for (String script : scripts) {
            Optional<String> refusal = SedScript.check(script);
            if (refusal.isPresent()) {
                return refusal;
            }
        }
        return Optional.empty();
    }
}
