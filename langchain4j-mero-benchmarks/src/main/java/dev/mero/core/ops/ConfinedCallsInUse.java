package dev.mero.core.ops;

/**
 * Names the {@link ConfinedCalls} layer this JVM selected ({@code openat2} with the foreign-function API on Java
 * 25, {@code none} on Java 17 or with {@code -Dmero.confinedCalls=off}), so that a benchmark can print which read
 * path it measured. In this package because the layer is package-private.
 */
public final class ConfinedCallsInUse {

    private ConfinedCallsInUse() {
    }

    /**
     * The selected layer's name.
     *
     * @return e.g. {@code "openat2"} or {@code "none"}
     */
    public static String name() {
        return ConfinedCalls.current().name();
    }
}
