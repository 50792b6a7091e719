package dev.mero.core.command;

import java.nio.file.Path;

/**
 * How a program is named in a command or a rule: a bare name looked up on the context's search path, an
 * absolute path, or anything else, which is refused ({@code ./cat}, {@code sub/cat}, {@code ../x}).
 */
enum ProgramName {

    /** {@code git}: looked up on the search path. */
    BARE,
    /** {@code /usr/bin/git}: used only when a rule names exactly this path. */
    ABSOLUTE,
    /** {@code ./git}, {@code bin/git}, {@code ..}, an empty name: never run. */
    RELATIVE;

    /** The form of {@code program}; an absolute path must be normalised ({@code /a/../b} is refused as relative). */
    static ProgramName of(String program) {
        if (program.isEmpty() || program.equals(".") || program.equals("..")) {
            return RELATIVE;
        }
        if (program.indexOf('/') < 0) {
            return BARE;
        }
        if (program.startsWith("/") && program.length() > 1
                && Path.of(program).normalize().toString().equals(program)) {
            return ABSOLUTE;
        }
        return RELATIVE;
    }

    /** The last name of a program or path: {@code /usr/bin/git} gives {@code git}. */
    static String baseName(String program) {
        return program.substring(program.lastIndexOf('/') + 1);
    }
}
