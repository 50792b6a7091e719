package dev.mero.core.catalogue;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How a tool behaves, as hosts use it to relax or tighten approval prompts: the MCP tool annotations
 * {@code readOnlyHint}, {@code destructiveHint}, {@code idempotentHint} and {@code openWorldHint}. Hints, not
 * enforcement: every call is still decided by the security context. Immutable.
 */
public final class ToolHints {

    /** Metadata key of {@link #readOnly()}. */
    public static final String READ_ONLY_HINT = "readOnlyHint";
    /** Metadata key of {@link #destructive()}. */
    public static final String DESTRUCTIVE_HINT = "destructiveHint";
    /** Metadata key of {@link #idempotent()}. */
    public static final String IDEMPOTENT_HINT = "idempotentHint";
    /** Metadata key of {@link #openWorld()}. */
    public static final String OPEN_WORLD_HINT = "openWorldHint";

    /** Reads and changes nothing: listing, reading, searching. */
    public static final ToolHints READ_ONLY = new ToolHints(true, false, true, false);
    /** Adds without replacing, and again adds nothing more: creating a directory. */
    public static final ToolHints ADDS = new ToolHints(false, false, true, false);
    /** Adds each time it is called: appending to a file. */
    public static final ToolHints ADDS_EACH_CALL = new ToolHints(false, false, false, false);
    /** Overwrites or deletes, and again changes nothing more: writing, copying, deleting, syncing. */
    public static final ToolHints REPLACES = new ToolHints(false, true, true, false);
    /** Overwrites or deletes, and again changes more or fails: editing, moving. */
    public static final ToolHints CHANGES = new ToolHints(false, true, false, false);
    /** May do anything a program can, beyond the mounts too: running a command. */
    public static final ToolHints RUNS_PROGRAMS = new ToolHints(false, true, false, true);

    private final boolean readOnly;
    private final boolean destructive;
    private final boolean idempotent;
    private final boolean openWorld;
    private final Map<String, Object> metadata;

    private ToolHints(boolean readOnly, boolean destructive, boolean idempotent, boolean openWorld) {
        this.readOnly = readOnly;
        this.destructive = destructive;
        this.idempotent = idempotent;
        this.openWorld = openWorld;
        Map<String, Object> map = new LinkedHashMap<>();
        map.put(READ_ONLY_HINT, readOnly);
        map.put(DESTRUCTIVE_HINT, destructive);
        map.put(IDEMPOTENT_HINT, idempotent);
        map.put(OPEN_WORLD_HINT, openWorld);
        this.metadata = Collections.unmodifiableMap(map);
    }

    /**
     * Creates hints.
     *
     * @param readOnly    the tool changes nothing
     * @param destructive the tool may delete or overwrite data
     * @param idempotent  calling it again with the same arguments has no further effect
     * @param openWorld   the tool may reach beyond the mounted directories (e.g. a command using the network)
     * @return the hints
     */
    public static ToolHints of(boolean readOnly, boolean destructive, boolean idempotent, boolean openWorld) {
        return new ToolHints(readOnly, destructive, idempotent, openWorld);
    }

    /**
     * Tells whether the tool changes nothing.
     *
     * @return the read-only hint
     */
    public boolean readOnly() {
        return readOnly;
    }

    /**
     * Tells whether the tool may delete or overwrite data.
     *
     * @return the destructive hint
     */
    public boolean destructive() {
        return destructive;
    }

    /**
     * Tells whether a repeated call with the same arguments has no further effect.
     *
     * @return the idempotent hint
     */
    public boolean idempotent() {
        return idempotent;
    }

    /**
     * Tells whether the tool may reach beyond the mounted directories.
     *
     * @return the open-world hint
     */
    public boolean openWorld() {
        return openWorld;
    }

    /**
     * The hints as tool metadata: {@code {"readOnlyHint": true, "destructiveHint": false, ...}}, in that order.
     *
     * @return an immutable, insertion-ordered map
     */
    public Map<String, Object> asMetadata() {
        return metadata;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ToolHints other && metadata.equals(other.metadata);
    }

    @Override
    public int hashCode() {
        return metadata.hashCode();
    }

    @Override
    public String toString() {
        return metadata.toString();
    }
}
