package dev.mero.core.command.guard;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code awk}, {@code gawk}, {@code mawk}, {@code nawk}: refuses program files ({@code -f}, {@code --file},
 * {@code -E}/{@code --exec}, {@code -i}/{@code --include}: their content cannot be checked), extensions
 * ({@code -l}/{@code --load}), options that write files ({@code -d}/{@code --dump-variables},
 * {@code -o}/{@code --pretty-print}, {@code -p}/{@code --profile}), the debugger ({@code -D}/{@code --debug}),
 * implementation options ({@code -W}, e.g. mawk's {@code -W exec}), and programs that run commands or
 * redirect (see {@link AwkProgram}). The programs are the {@code -e}/{@code --source} values and the first
 * operand.
 */
final class AwkGuard extends ProgramGuard {

    private static final Set<String> DANGEROUS_LONG = Set.of("file", "exec", "include", "load", "dump-variables",
            "pretty-print", "profile", "debug");
    private static final Set<String> LONG_NAMES = Set.of("file", "exec", "include", "load", "dump-variables",
            "pretty-print", "profile", "debug", "source", "assign", "field-separator");
    private static final OptionScan.Spec SPEC = new OptionScan.Spec("fFvWeEil", "dDopL",
            Set.of("file", "exec", "include", "load", "source", "assign", "field-separator"), LONG_NAMES, false);

    AwkGuard() {
        super(Set.of("awk", "gawk", "mawk", "nawk", "original-awk", "bwk-awk", "onetrue-awk"));
    }

    @Override
    Optional<String> inspect(List<String> arguments) {
        OptionScan scan = OptionScan.of(arguments, SPEC);
        OptionScan.Option dangerous = scan.find("fEildopDW", DANGEROUS_LONG.toArray(String[]::new));
        if (dangerous != null) {
            return refuse("the option " + shown(dangerous) + " makes awk read a program file, load code, write a "
                    + "file or change how it runs; give the program inline and let awk print to standard output");
        }
        List<String> programs = new ArrayList<>();
        for (OptionScan.Option option : scan.options()) {
            if (option.isShort('e') || option.isLong("source")) {
                programs.add(option.value() == null ? "" : option.value());
            }
        }
        if (!scan.operands().isEmpty()) {
            programs.add(scan.operands().get(0));
        }
        for (String program : programs) {
            Optional<String> refusal = AwkProgram.check(program);
            if (refusal.isPresent()) {
                return refusal;
            }
        }
        return Optional.empty();
    }
}
