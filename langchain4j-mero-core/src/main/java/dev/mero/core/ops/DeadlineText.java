package dev.mero.core.ops;

/**
 * Text whose characters can be read only until a deadline, so that a regular expression that backtracks
 * without end (e.g. {@code (a+)+$}) is stopped: the matcher reads characters through {@link #charAt(int)},
 * which throws {@link Expired} once the deadline has passed.
 */
final class DeadlineText implements CharSequence {

    /** Thrown through the matcher when the deadline has passed. */
    static final class Expired extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Expired() {
            super("search time limit reached", null, false, false);
        }
    }

    private final String text;
    private final long deadline;
    private int reads;

    DeadlineText(String text, long deadline) {
        this.text = text;
        this.deadline = deadline;
    }

    @Override
    public char charAt(int index) {
        // reading the clock costs more than a character; look every few thousand reads
        if ((++reads & 0xFFF) == 0 && System.nanoTime() - deadline > 0) {
            throw new Expired();
        }
        return text.charAt(index);
    }

    @Override
    public int length() {
        return text.length();
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return new DeadlineText(text.substring(start, end), deadline);
    }

    @Override
    public String toString() {
        return text;
    }

    /**
     * One line of a text at a time, read until a deadline as {@link DeadlineText} is: the window is moved from line
     * to line, so a search allocates nothing per line. RE2/J matches the window as a text on its own.
     */
    static final class Line implements CharSequence {

        private final String text;
        private final long deadline;
        private int start;
        private int end;
        private int reads;

        Line(String text, long deadline) {
            this.text = text;
            this.deadline = deadline;
        }

        /**
         * Moves the window.
         *
         * @return this line, now {@code text[start, end)}
         */
        Line window(int start, int end) {
            this.start = start;
            this.end = end;
            return this;
        }

        @Override
        public char charAt(int index) {
            if ((++reads & 0xFFF) == 0 && System.nanoTime() - deadline > 0) {
                throw new Expired();
            }
            return text.charAt(start + index);
        }

        @Override
        public int length() {
            return end - start;
        }

        @Override
        public CharSequence subSequence(int from, int to) {
            return text.substring(start + from, start + to);
        }

        @Override
        public String toString() {
            return text.substring(start, end);
        }
    }
}
