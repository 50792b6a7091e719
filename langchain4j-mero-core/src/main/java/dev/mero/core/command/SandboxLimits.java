package dev.mero.core.command;

import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * What one sandboxed run may consume: processes (threads included), memory, the size of each file it writes,
 * the size of its private {@code /tmp} and CPU time per process. The defaults leave room for builds and test
 * suites and stop fork bombs, memory bombs and disk fills; a user rarely needs to change them.
 *
 * <pre>{@code
 * CommandSandbox sandbox = CommandSandbox.builder()
 *         .limits(SandboxLimits.builder().memoryBytes(512L << 20).processes(128).build())
 *         .build();
 * }</pre>
 *
 * <p>How each limit is enforced: processes and memory by a cgroup of the run's own (cgroup v1 {@code pids} and
 * {@code memory} hierarchies, or cgroup v2 with both controllers delegated), file size and CPU time by the
 * rlimits {@code RLIMIT_FSIZE} and {@code RLIMIT_CPU} (set with {@code prlimit} from util-linux), {@code /tmp}
 * by the size of its tmpfs. A limit that was set explicitly and cannot be enforced on this machine makes every
 * run refuse (fail closed) unless {@link Builder#bestEffort(boolean)} allows running without it; a default
 * that cannot be enforced is reported once in the log. Where no cgroup is available, an explicitly set memory
 * limit is enforced as {@code RLIMIT_AS} (address space, which is more than resident memory).
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class SandboxLimits {

    /** Default number of processes and threads a run may have at once. */
    public static final int DEFAULT_PROCESSES = 512;
    /** Default memory of a run, {@code /tmp} included: 2 GiB. */
    public static final long DEFAULT_MEMORY_BYTES = 2L << 30;
    /** Default largest file a run may write: 1 GiB. */
    public static final long DEFAULT_FILE_SIZE_BYTES = 1L << 30;
    /** Default size of the private {@code /tmp}: 512 MiB. */
    public static final long DEFAULT_TMP_SIZE_BYTES = 512L << 20;
    /** Default CPU time of each process of a run: 10 minutes, twice the longest default timeout. */
    public static final int DEFAULT_CPU_SECONDS = 600;

    private static final SandboxLimits DEFAULTS = builder().build();

    /** One limit, named as in messages and policy files. */
    enum Kind {
        PROCESSES("process limit"), MEMORY("memory limit"), FILE_SIZE("file size limit"),
        TMP_SIZE("/tmp size limit"), CPU_SECONDS("CPU time limit");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        String label() {
            return label;
        }
    }

    private final int processes;
    private final long memoryBytes;
    private final long fileSizeBytes;
    private final long tmpSizeBytes;
    private final int cpuSeconds;
    private final boolean bestEffort;
    private final Set<Kind> configured;

    private SandboxLimits(Builder builder) {
        this.processes = builder.processes;
        this.memoryBytes = builder.memoryBytes;
        this.fileSizeBytes = builder.fileSizeBytes;
        this.tmpSizeBytes = builder.tmpSizeBytes;
        this.cpuSeconds = builder.cpuSeconds;
        this.bestEffort = builder.bestEffort;
        this.configured = Set.copyOf(builder.configured);
    }

    /**
     * The default limits.
     *
     * @return the defaults
     */
    public static SandboxLimits defaults() {
        return DEFAULTS;
    }

    /**
     * Starts a builder with the defaults.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * How many processes and threads a run may have at once.
     *
     * @return a positive count
     */
    public int processes() {
        return processes;
    }

    /**
     * How much memory a run may use, its {@code /tmp} included.
     *
     * @return bytes
     */
    public long memoryBytes() {
        return memoryBytes;
    }

    /**
     * The largest file a process of a run may write.
     *
     * @return bytes
     */
    public long fileSizeBytes() {
        return fileSizeBytes;
    }

    /**
     * The size of the run's private {@code /tmp}.
     *
     * @return bytes
     */
    public long tmpSizeBytes() {
        return tmpSizeBytes;
    }

    /**
     * The CPU time each process of a run may use.
     *
     * @return seconds
     */
    public int cpuSeconds() {
        return cpuSeconds;
    }

    /**
     * Whether a run may go ahead when a limit that was set explicitly cannot be enforced on this machine.
     *
     * @return {@code true} after the explicit opt-out
     */
    public boolean bestEffort() {
        return bestEffort;
    }

    /** Whether a limit was set explicitly, so that failing to enforce it refuses the run. */
    boolean configured(Kind kind) {
        return configured.contains(kind);
    }

    /** A limit's value in words, as messages show it: {@code 1 GiB}, {@code 512 processes}. */
    String describe(Kind kind) {
        return switch (kind) {
            case PROCESSES -> processes + (processes == 1 ? " process" : " processes");
            case MEMORY -> ByteSize.format(memoryBytes);
            case FILE_SIZE -> ByteSize.format(fileSizeBytes);
            case TMP_SIZE -> ByteSize.format(tmpSizeBytes);
            case CPU_SECONDS -> cpuSeconds + " s";
        };
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SandboxLimits other && processes == other.processes && memoryBytes == other.memoryBytes
                && fileSizeBytes == other.fileSizeBytes && tmpSizeBytes == other.tmpSizeBytes
                && cpuSeconds == other.cpuSeconds && bestEffort == other.bestEffort
                && configured.equals(other.configured);
    }

    @Override
    public int hashCode() {
        return Objects.hash(processes, memoryBytes, fileSizeBytes, tmpSizeBytes, cpuSeconds, bestEffort, configured);
    }

    @Override
    public String toString() {
        return "SandboxLimits{processes=" + processes + ", memory=" + ByteSize.format(memoryBytes) + ", fileSize="
                + ByteSize.format(fileSizeBytes) + ", tmpSize=" + ByteSize.format(tmpSizeBytes) + ", cpuSeconds="
                + cpuSeconds + (bestEffort ? ", bestEffort" : "") + "}";
    }

    /** Builds {@link SandboxLimits}. */
    public static final class Builder {

        private int processes = DEFAULT_PROCESSES;
        private long memoryBytes = DEFAULT_MEMORY_BYTES;
        private long fileSizeBytes = DEFAULT_FILE_SIZE_BYTES;
        private long tmpSizeBytes = DEFAULT_TMP_SIZE_BYTES;
        private int cpuSeconds = DEFAULT_CPU_SECONDS;
        private boolean bestEffort;
        private final Set<Kind> configured = EnumSet.noneOf(Kind.class);

        private Builder() {
        }

        /**
         * Sets how many processes and threads a run may have at once (default 512).
         *
         * @param count at least 1
         * @return this builder
         * @throws IllegalArgumentException if the count is not positive
         */
        public Builder processes(int count) {
            this.processes = (int) positive("processes", count, Integer.MAX_VALUE);
            configured.add(Kind.PROCESSES);
            return this;
        }

        /**
         * Sets the memory a run may use, its {@code /tmp} included (default 2 GiB).
         *
         * @param bytes at least 1 MiB
         * @return this builder
         * @throws IllegalArgumentException if below 1 MiB
         */
        public Builder memoryBytes(long bytes) {
            this.memoryBytes = atLeastMebibyte("memory", bytes);
            configured.add(Kind.MEMORY);
            return this;
        }

        /**
         * Sets the largest file a run may write (default 1 GiB).
         *
         * @param bytes at least 1
         * @return this builder
         * @throws IllegalArgumentException if not positive
         */
        public Builder fileSizeBytes(long bytes) {
            this.fileSizeBytes = positive("file_size", bytes, Long.MAX_VALUE);
            configured.add(Kind.FILE_SIZE);
            return this;
        }

        /**
         * Sets the size of the run's private {@code /tmp} (default 512 MiB).
         *
         * @param bytes at least 1 MiB
         * @return this builder
         * @throws IllegalArgumentException if below 1 MiB
         */
        public Builder tmpSizeBytes(long bytes) {
            this.tmpSizeBytes = atLeastMebibyte("tmp_size", bytes);
            configured.add(Kind.TMP_SIZE);
            return this;
        }

        /**
         * Sets the CPU time each process of a run may use (default 600 s).
         *
         * @param seconds at least 1
         * @return this builder
         * @throws IllegalArgumentException if not positive
         */
        public Builder cpuSeconds(int seconds) {
            this.cpuSeconds = (int) positive("cpu_seconds", seconds, Integer.MAX_VALUE);
            configured.add(Kind.CPU_SECONDS);
            return this;
        }

        /**
         * The explicit opt-out: run even when a limit set on this builder cannot be enforced on this machine
         * (default {@code false}: such a run is refused).
         *
         * @param allowed whether runs go ahead without the limits the machine cannot enforce
         * @return this builder
         */
        public Builder bestEffort(boolean allowed) {
            this.bestEffort = allowed;
            return this;
        }

        /**
         * Builds the limits.
         *
         * @return the limits
         */
        public SandboxLimits build() {
            return new SandboxLimits(this);
        }

        private static long positive(String what, long value, long max) {
            if (value < 1 || value > max) {
                throw new IllegalArgumentException("Sandbox limit " + what + " must be positive, got " + value);
            }
            return value;
        }

        private static long atLeastMebibyte(String what, long bytes) {
            if (bytes < ByteSize.MEBIBYTE) {
                throw new IllegalArgumentException("Sandbox limit " + what + " must be at least 1 MiB, got "
                        + bytes + " bytes");
            }
            return bytes;
        }
    }
}
