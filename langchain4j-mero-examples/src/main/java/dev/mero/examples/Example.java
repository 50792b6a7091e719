package dev.mero.examples;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** The runnable examples, by the name {@code -Dexample=<name>} selects. */
enum Example {

    /** The default: one assistant on a workspace. */
    WORKSPACE("workspace", "an assistant searches, reads, edits (dry run first), runs a command, is refused, recovers",
            WorkspaceAgent::run),
    /** A manager delegates to two narrowed workers. */
    MANAGER("manager", "a manager delegates to a read-only and a drafts-only worker; a worker's denial reaches it",
            ManagerAgent::run),
    /** Writes and deletes wait for a human. */
    APPROVAL("approval", "writes and deletes wait for a human's approval on the console", ApprovalAgent::run),
    /** Writes wait for a person in the approval inbox, a web page on loopback. */
    INBOX("inbox", "writes wait for a click in the approval inbox, a web page on loopback", InboxAgent::run),
    /** The workspace assistant configured from a YAML policy file. */
    POLICY("policy", "the workspace assistant, its context loaded from a YAML policy file", PolicyAgent::run),
    /** The same tools from Spring AI. */
    SPRING("spring", "the same tools as Spring AI ToolCallbacks, driven through ChatClient", SpringAiAgent::run);

    private final String id;
    private final String summary;
    private final Runner runner;

    Example(String id, String summary, Runner runner) {
        this.id = id;
        this.summary = summary;
        this.runner = runner;
    }

    /**
     * The example a name selects.
     *
     * @param name the name, any case
     * @return the example, or empty for an unknown name
     */
    static Optional<Example> named(String name) {
        String wanted = name.strip().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(example -> example.id.equals(wanted)).findFirst();
    }

    /**
     * One line per example, for the usage text.
     *
     * @return the list
     */
    static String list() {
        return Arrays.stream(values()).map(example -> String.format("  %-10s %s", example.id, example.summary))
                .collect(Collectors.joining("\n"));
    }

    /**
     * The name that selects this example.
     *
     * @return the name
     */
    String id() {
        return id;
    }

    /**
     * What the example shows, in one line.
     *
     * @return the summary
     */
    String summary() {
        return summary;
    }

    /**
     * Runs the example.
     *
     * @param root       an existing, empty directory for its files; left for the caller to delete
     * @param models     which model drives it
     * @param transcript where the session is shown
     * @return the main agent's final answer
     * @throws IOException if the example's files cannot be created
     */
    String run(Path root, ModelSelection models, Transcript transcript) throws IOException {
        transcript.header(this, models.description());
        return runner.run(root, models, transcript);
    }

    /** How an example runs. */
    @FunctionalInterface
    interface Runner {

        /**
         * Runs an example.
         *
         * @param root       its directory
         * @param models     which model drives it
         * @param transcript where the session is shown
         * @return the final answer
         * @throws IOException if files cannot be created
         */
        String run(Path root, ModelSelection models, Transcript transcript) throws IOException;
    }
}
