package dev.mero.core.ops;

/**
 * Picks the {@link ConfinedCalls} of this JVM. On Java 17 there is no foreign-function API, so nothing is
 * reachable and the JDK's path is taken; the multi-release jar holds a Java 25 version of this class
 * ({@code META-INF/versions/25}) that tries the kernel's {@code openat2}.
 */
final class ConfinedCallsSelector {

    private ConfinedCallsSelector() {
    }

    /**
     * The layer this JVM can use.
     *
     * @return {@link ConfinedCalls#NONE} on Java 17
     */
    static ConfinedCalls select() {
        return ConfinedCalls.NONE;
    }
}
