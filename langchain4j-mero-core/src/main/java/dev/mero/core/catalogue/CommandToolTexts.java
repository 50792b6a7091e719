package dev.mero.core.catalogue;

/**
 * The names and model-facing texts of the command tool, as compile-time constants shared by the
 * {@link ToolCatalogue} and annotation-based bindings.
 */
public final class CommandToolTexts {

    /** Tool name. */
    public static final String RUN_COMMAND = "run_command";
    /** Description of {@value #RUN_COMMAND}. */
    public static final String RUN_COMMAND_DESCRIPTION = "Runs one allowed program with arguments (no shell: no "
            + "pipes, redirections, ';' or '&&'; quote arguments as in a POSIX shell) and returns its exit code "
            + "and output, saying when output was cut or the command timed out. The working directory is a "
            + "virtual path such as '/<mount>' (see list_roots).";
    /** Parameter description. */
    public static final String RUN_COMMAND_COMMAND = "The command line, for example 'git status' or 'ls -la src'";
    /** Parameter description. */
    public static final String RUN_COMMAND_WORKING_DIRECTORY = "Directory to run in, for example '/<mount>' "
            + "(default: the first mount that allows running commands)";
    /** Parameter description. */
    public static final String RUN_COMMAND_TIMEOUT_SECONDS = "Seconds the command may run (default and maximum "
            + "set by the host)";

    private CommandToolTexts() {
    }
}
