package dev.mero.core.command;

import java.math.BigDecimal;
import java.time.Duration;

/**
 * Renders a duration the way every runner message shows it: whole seconds as {@code 30 s}, anything else
 * in seconds with up to millisecond precision, as {@code 1.5 s} or {@code 0.25 s}.
 */
final class DurationText {

    private DurationText() {
    }

    static String of(Duration duration) {
        long millis = duration.toMillis();
        if (millis % 1000 == 0) {
            return millis / 1000 + " s";
        }
        return BigDecimal.valueOf(millis, 3).stripTrailingZeros().toPlainString() + " s";
    }
}
