package dev.mero.core.metrics;

/** The metrics that count nothing. */
final class NoMetrics implements MeroMetrics {

    static final NoMetrics INSTANCE = new NoMetrics();

    private NoMetrics() {
    }

    @Override
    public String toString() {
        return "MeroMetrics.none()";
    }
}
