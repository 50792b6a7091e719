package dev.mero.core.ops;

/**
 * The bounds of every operation: bytes, entries, matches and time, whatever a file system or a pattern holds.
 * Immutable; {@link #defaults()} or {@link #builder()}.
 */
public final class OperationLimits {

    private static final OperationLimits DEFAULTS = builder().build();
    private final int maxReadBytes;
    private final long maxScanBytes;
    private final int maxWriteBytes;
    private final int maxListEntries;
    private final int maxTreeEntries;
    private final int maxTreeDepth;
    private final int maxFindResults;
    private final int maxScanEntries;
    private final int maxSearchMatches;
    private final int maxSearchFileBytes;
    private final long searchTimeoutMillis;
    private final long maxCopyBytes;

    private OperationLimits(Builder builder) {
        this.maxReadBytes = builder.maxReadBytes;
        this.maxScanBytes = builder.maxScanBytes;
        this.maxWriteBytes = builder.maxWriteBytes;
        this.maxListEntries = builder.maxListEntries;
        this.maxTreeEntries = builder.maxTreeEntries;
        this.maxTreeDepth = builder.maxTreeDepth;
        this.maxFindResults = builder.maxFindResults;
        this.maxScanEntries = builder.maxScanEntries;
        this.maxSearchMatches = builder.maxSearchMatches;
        this.maxSearchFileBytes = builder.maxSearchFileBytes;
        this.searchTimeoutMillis = builder.searchTimeoutMillis;
        this.maxCopyBytes = builder.maxCopyBytes;
    }

    /**
     * The default limits.
     *
     * @return the defaults
     */
    public static OperationLimits defaults() {
        return DEFAULTS;
    }

    /**
     * Starts a builder with the default limits.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * How many bytes of a file {@code read_file} returns at most; the rest is cut at a line boundary with a note.
     *
     * @return the limit (default {@code 256 * 1024})
     */
    public int maxReadBytes() {
        return maxReadBytes;
    }

    /**
     * How many bytes {@code read_file} reads at most to reach a window's offset and to count a file's lines.
     *
     * @return the limit (default {@code 64 * 1024 * 1024})
     */
    public long maxScanBytes() {
        return maxScanBytes;
    }

    /**
     * How many bytes {@code write_file}, {@code append_file} and {@code edit_file} write at once.
     *
     * @return the limit (default {@code 1024 * 1024})
     */
    public int maxWriteBytes() {
        return maxWriteBytes;
    }

    /**
     * How many entries {@code list_directory} shows at most.
     *
     * @return the limit (default {@code 1000})
     */
    public int maxListEntries() {
        return maxListEntries;
    }

    /**
     * How many entries {@code directory_tree} shows at most.
     *
     * @return the limit (default {@code 500})
     */
    public int maxTreeEntries() {
        return maxTreeEntries;
    }

    /**
     * The deepest {@code max_depth} {@code directory_tree} accepts.
     *
     * @return the limit (default {@code 10})
     */
    public int maxTreeDepth() {
        return maxTreeDepth;
    }

    /**
     * How many paths {@code find_files} returns at most.
     *
     * @return the limit (default {@code 500})
     */
    public int maxFindResults() {
        return maxFindResults;
    }

    /**
     * How many directory entries one {@code find_files}, {@code search_text}, recursive delete or sync visits at most.
     *
     * @return the limit (default {@code 20_000})
     */
    public int maxScanEntries() {
        return maxScanEntries;
    }

    /**
     * How many matching lines {@code search_text} returns at most.
     *
     * @return the limit (default {@code 200})
     */
    public int maxSearchMatches() {
        return maxSearchMatches;
    }

    /**
     * How many bytes of each file {@code search_text} searches; larger files are searched in part, with a note.
     *
     * @return the limit (default {@code 1024 * 1024})
     */
    public int maxSearchFileBytes() {
        return maxSearchFileBytes;
    }

    /**
     * How long one {@code search_text} may run, in milliseconds, including a regular expression's backtracking.
     *
     * @return the limit (default {@code 10_000})
     */
    public long searchTimeoutMillis() {
        return searchTimeoutMillis;
    }

    /**
     * The largest file {@code copy_file}, {@code move_file} across file systems and {@code sync_directory} copy.
     *
     * @return the limit (default {@code 64 * 1024 * 1024})
     */
    public long maxCopyBytes() {
        return maxCopyBytes;
    }

    @Override
    public String toString() {
        return "OperationLimits{maxReadBytes=" + maxReadBytes + ", maxWriteBytes=" + maxWriteBytes
                + ", maxScanEntries=" + maxScanEntries + ", searchTimeoutMillis=" + searchTimeoutMillis + "}";
    }

    /** Builds {@link OperationLimits}; every limit starts at its default and must be positive. */
    public static final class Builder {
        private int maxReadBytes = 256 * 1024;
        private long maxScanBytes = 64L * 1024 * 1024;
        private int maxWriteBytes = 1024 * 1024;
        private int maxListEntries = 1000;
        private int maxTreeEntries = 500;
        private int maxTreeDepth = 10;
        private int maxFindResults = 500;
        private int maxScanEntries = 20_000;
        private int maxSearchMatches = 200;
        private int maxSearchFileBytes = 1024 * 1024;
        private long searchTimeoutMillis = 10_000L;
        private long maxCopyBytes = 64L * 1024 * 1024;

        private Builder() {
        }

        /**
         * Sets the limit: how many bytes of a file {@code read_file} returns at most; the rest is cut at a line boundary with a note.
         *
         * @param maxReadBytes a positive value
         * @return this builder
         */
        public Builder maxReadBytes(int maxReadBytes) {
            this.maxReadBytes = (int) positive(maxReadBytes, "maxReadBytes");
            return this;
        }

        /**
         * Sets the limit: how many bytes {@code read_file} reads at most to reach a window's offset and to count a file's lines.
         *
         * @param maxScanBytes a positive value
         * @return this builder
         */
        public Builder maxScanBytes(long maxScanBytes) {
            this.maxScanBytes = positive(maxScanBytes, "maxScanBytes");
            return this;
        }

        /**
         * Sets the limit: how many bytes {@code write_file}, {@code append_file} and {@code edit_file} write at once.
         *
         * @param maxWriteBytes a positive value
         * @return this builder
         */
        public Builder maxWriteBytes(int maxWriteBytes) {
            this.maxWriteBytes = (int) positive(maxWriteBytes, "maxWriteBytes");
            return this;
        }

        /**
         * Sets the limit: how many entries {@code list_directory} shows at most.
         *
         * @param maxListEntries a positive value
         * @return this builder
         */
        public Builder maxListEntries(int maxListEntries) {
            this.maxListEntries = (int) positive(maxListEntries, "maxListEntries");
            return this;
        }

        /**
         * Sets the limit: how many entries {@code directory_tree} shows at most.
         *
         * @param maxTreeEntries a positive value
         * @return this builder
         */
        public Builder maxTreeEntries(int maxTreeEntries) {
            this.maxTreeEntries = (int) positive(maxTreeEntries, "maxTreeEntries");
            return this;
        }

        /**
         * Sets the limit: the deepest {@code max_depth} {@code directory_tree} accepts.
         *
         * @param maxTreeDepth a positive value
         * @return this builder
         */
        public Builder maxTreeDepth(int maxTreeDepth) {
            this.maxTreeDepth = (int) positive(maxTreeDepth, "maxTreeDepth");
            return this;
        }

        /**
         * Sets the limit: how many paths {@code find_files} returns at most.
         *
         * @param maxFindResults a positive value
         * @return this builder
         */
        public Builder maxFindResults(int maxFindResults) {
            this.maxFindResults = (int) positive(maxFindResults, "maxFindResults");
            return this;
        }

        /**
         * Sets the limit: how many directory entries one {@code find_files}, {@code search_text}, recursive delete or sync visits at most.
         *
         * @param maxScanEntries a positive value
         * @return this builder
         */
        public Builder maxScanEntries(int maxScanEntries) {
            this.maxScanEntries = (int) positive(maxScanEntries, "maxScanEntries");
            return this;
        }

        /**
         * Sets the limit: how many matching lines {@code search_text} returns at most.
         *
         * @param maxSearchMatches a positive value
         * @return this builder
         */
        public Builder maxSearchMatches(int maxSearchMatches) {
            this.maxSearchMatches = (int) positive(maxSearchMatches, "maxSearchMatches");
            return this;
        }

        /**
         * Sets the limit: how many bytes of each file {@code search_text} searches; larger files are searched in part, with a note.
         *
         * @param maxSearchFileBytes a positive value
         * @return this builder
         */
        public Builder maxSearchFileBytes(int maxSearchFileBytes) {
            this.maxSearchFileBytes = (int) positive(maxSearchFileBytes, "maxSearchFileBytes");
            return this;
        }

        /**
         * Sets the limit: how long one {@code search_text} may run, in milliseconds, including a regular expression's backtracking.
         *
         * @param searchTimeoutMillis a positive value
         * @return this builder
         */
        public Builder searchTimeoutMillis(long searchTimeoutMillis) {
            this.searchTimeoutMillis = positive(searchTimeoutMillis, "searchTimeoutMillis");
            return this;
        }

        /**
         * Sets the limit: the largest file {@code copy_file}, {@code move_file} across file systems and {@code sync_directory} copy.
         *
         * @param maxCopyBytes a positive value
         * @return this builder
         */
        public Builder maxCopyBytes(long maxCopyBytes) {
            this.maxCopyBytes = positive(maxCopyBytes, "maxCopyBytes");
            return this;
        }

        /**
         * Builds the limits.
         *
         * @return the limits
         */
        public OperationLimits build() {
            return new OperationLimits(this);
        }

        private static long positive(long value, String name) {
            // buffers hold one byte more than a limit, so a limit must leave room for it
            if (value < 1 || value >= Integer.MAX_VALUE && !name.equals("maxScanBytes")
                    && !name.equals("maxCopyBytes") && !name.equals("searchTimeoutMillis")) {
                throw new IllegalArgumentException(name + " must be positive and below " + Integer.MAX_VALUE
                        + ", was " + value);
            }
            return value;
        }
    }
}
