package dev.mero.core.ops;

/**
 * Picks the {@link ConfinedCalls} of this JVM. On Java 17 there is no foreign-function API: the kernel's {@code
 * openat2} is reached through the core's JNI library where it loads ({@link JniConfinedCalls}, files only), else
 * the JDK's path is taken; the multi-release jar holds a Java 25 version of this class ({@code META-INF/versions/25})
 * that binds {@code openat2} through the foreign-function API.
 */
final class ConfinedCallsSelector {

    private ConfinedCallsSelector() {
    }

    /**
     * The layer this JVM can use.
     *
     * @return the JNI layer, or {@link ConfinedCalls#NONE}
     */
    static ConfinedCalls select() {
        try {
            return JniConfinedCalls.probe();
        } catch (RuntimeException | LinkageError e) {
            // a library of another build whose symbols do not match, or one the JVM refuses
            return ConfinedCalls.NONE;
        }
    }
}
