package dev.mero.core.ops;

/**
 * Text whose characters can be read only until a deadline, so that matching a long line is stopped when the
 * search's time is up: the matcher reads characters through {@link #charAt(int)}, which throws {@link Expired}
 * once the deadline has passed. A window onto one line at a time ({@link #window(int, int)}) is moved from line to
 * line, so a search allocates nothing per line; RE2/J matches the window as a text on its own.
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
    private int start;
    private int end;
    private int reads;

    DeadlineText(String text, long deadline) {
        this.text = text;
        this.deadline = deadline;
        this.end = text.length();
    }

    /**
     * Moves the window.
     *
     * @param start the first character of the text to show
     * @param end   the character after the last
     * @return this text, now {@code text[start, end)}
     */
    DeadlineText window(int start, int end) {
        this.start = start;
        this.end = end;
        return this;
    }

    @Override
    public char charAt(int index) {
        // reading the clock costs more than a character; look every few thousand reads
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
        return new DeadlineText(text.substring(start + from, start + to), deadline);
    }

    @Override
    public String toString() {
        return text.substring(start, end);
    }
}
