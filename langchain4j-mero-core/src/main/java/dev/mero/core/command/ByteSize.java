package dev.mero.core.command;

/** Byte counts in the words messages use: the largest binary unit that divides the count exactly. */
final class ByteSize {

    static final long MEBIBYTE = 1L << 20;

    private static final String[] UNITS = {"bytes", "KiB", "MiB", "GiB", "TiB"};

    private ByteSize() {
    }

    /** {@code 1 GiB}, {@code 1536 KiB}, {@code 1000 bytes}. */
    static String format(long bytes) {
        int unit = 0;
        long value = bytes;
        while (unit < UNITS.length - 1 && value != 0 && value % 1024 == 0) {
            value /= 1024;
            unit++;
        }
        return value + " " + UNITS[unit];
    }
}
