package dev.mero.examples;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.audit.AuditLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The small file tree the example agents work on, and the security context that mounts it: the
 * {@code workspace} directory as {@code /ws} (READ, WRITE, EXECUTE: programs may run there) and the
 * {@code docs} directory as {@code /docs} (READ only); {@code wc} is the one allowed command. The audit trail
 * goes to the transcript, right after the call that caused it.
 */
public final class DemoWorkspace {

    /** The name of the context, as it appears in every message. */
    public static final String CONTEXT_NAME = "workspace-agent";

    /** The one command rule: {@code wc} with any arguments (which must name files the agent may read). */
    static final String ALLOWED_COMMAND = "wc";

    /** The meeting notes the agent is asked to summarise. */
    static final String NOTES = String.join("\n",
            "# Team sync",
            "",
            "Attendees: Ana, Ben, Chen",
            "",
            "## Decisions",
            "- Ship version 1.2 on Friday.",
            "- Move the nightly build to 02:00 UTC.",
            "",
            "## Action items",
            "- Ana: update the release notes.",
            "- Ben: fix the flaky login test.",
            "");

    private final Path workspace;
    private final Path docs;

    private DemoWorkspace(Path workspace, Path docs) {
        this.workspace = workspace;
        this.docs = docs;
    }

    /**
     * Creates the demo files under a directory.
     *
     * @param root an existing, empty directory
     * @return the workspace
     * @throws IOException if the files cannot be created
     */
    public static DemoWorkspace create(Path root) throws IOException {
        Path workspace = Files.createDirectories(root.resolve("workspace"));
        Path docs = Files.createDirectories(root.resolve("docs"));
        Files.writeString(workspace.resolve("notes.md"), NOTES);
        Files.writeString(workspace.resolve("todo.txt"), "- book the room for the retro\n");
        Files.createDirectories(workspace.resolve("data"));
        Files.writeString(workspace.resolve("data/metrics.csv"), "day,builds,failures\nmon,14,1\ntue,12,0\n");
        Files.writeString(docs.resolve("style-guide.md"), "# Style guide\n\nWrite short sentences.\n");
        return new DemoWorkspace(workspace, docs);
    }

    /**
     * The context's builder with both mounts, its name, the allowed command and the transcript as audit sink;
     * an example adds what it needs (approval) and builds it.
     *
     * @param transcript where the audit trail is shown
     * @param extra      permissions on {@code /ws} besides READ, WRITE and EXECUTE
     * @return the builder
     */
    SecurityContext.Builder contextBuilder(Transcript transcript, Permission... extra) {
        EnumSet<Permission> onWorkspace = EnumSet.of(Permission.READ, Permission.WRITE, Permission.EXECUTE);
        onWorkspace.addAll(Arrays.asList(extra));
        return SecurityContext.builder()
                .name(CONTEXT_NAME)
                .path(PathEntry.of(workspace.toString(), "ws", onWorkspace.toArray(new Permission[0])))
                .path(PathEntry.of(docs.toString(), "docs", Permission.READ))
                .allowCommand(ALLOWED_COMMAND)
                .auditLog(AuditLog.builder().sink(transcript.auditSink()).build());
    }

    /**
     * The host directory mounted as {@code /ws}.
     *
     * @return the directory
     */
    public Path workspace() {
        return workspace;
    }

    /**
     * The host directory mounted as {@code /docs}.
     *
     * @return the directory
     */
    public Path docs() {
        return docs;
    }

    /**
     * Deletes a directory tree created for the demo; symbolic links are removed, never followed.
     *
     * @param root the directory
     * @throws IOException if a file cannot be deleted
     */
    public static void delete(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(root)) {
            paths = walk.sorted(Comparator.reverseOrder()).collect(Collectors.toList());
        }
        for (Path path : paths) {
            Files.delete(path);
        }
    }
}
