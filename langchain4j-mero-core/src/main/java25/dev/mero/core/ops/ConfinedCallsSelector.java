package dev.mero.core.ops;

/**
 * Picks the {@link ConfinedCalls} of this JVM (the Java 25 version of the class, in the multi-release jar): the
 * kernel's {@code openat2} through the foreign-function API where a probe shows it works (Linux 5.6 or later, not
 * refused by a seccomp policy, native access allowed), else {@link ConfinedCalls#NONE}, the JDK's path.
 */
final class ConfinedCallsSelector {

    private ConfinedCallsSelector() {
    }

    /**
     * The layer this JVM can use.
     *
     * @return the {@code openat2} layer, or {@link ConfinedCalls#NONE}
     */
    static ConfinedCalls select() {
        try {
            return LinuxConfinedCalls.probe();
        } catch (RuntimeException | LinkageError e) {
            // no such symbol, another architecture, native access denied (--illegal-native-access=deny)
            return ConfinedCalls.NONE;
        }
    }
}
