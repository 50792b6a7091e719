package dev.mero.pit;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Tests that {@link DiscoverWithoutRunningPluginTest} finds and runs through the plugin. Its name matches no
 * test pattern, so the ordinary test run never runs it; it records what ran and fails only when asked to.
 */
public class SampleCases {

    static final List<String> RAN = new CopyOnWriteArrayList<>();
    static volatile boolean failing;

    @Test
    void plain() {
        RAN.add("plain");
    }

    @Test
    void failsWhenAsked() {
        RAN.add("failsWhenAsked");
        if (failing) {
            fail("asked to fail");
        }
    }

    @Test
    @Tag("slow")
    void tagged() {
        RAN.add("tagged");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void each(int n) {
        RAN.add("each" + n);
        if (failing && n == 2) {
            fail("the second invocation was asked to fail");
        }
    }

    @Nested
    class Inner {
        @Test
        void inner() {
            RAN.add("inner");
        }
    }

    /** Not {@code @Nested}: no test class of its own. */
    static class Helper {
        @Test
        void helper() {
            RAN.add("helper");
        }
    }
}
