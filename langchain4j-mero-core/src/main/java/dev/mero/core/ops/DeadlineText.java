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
}
