package dev.mero.pit;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.pitest.classinfo.ClassByteArraySource;
import org.pitest.help.PitHelpError;
import org.pitest.testapi.Configuration;
import org.pitest.testapi.TestGroupConfig;
import org.pitest.testapi.TestPluginFactory;
import org.pitest.testapi.TestSuiteFinder;
import org.pitest.testapi.TestUnitFinder;

/**
 * A PIT test plugin for JUnit Platform tests that finds a mutation minion's tests without running them.
 *
 * <p>The stock JUnit 5 plugin finds tests by running every covering test class once, in every minion: PIT
 * starts one minion per mutated class, so the core's widely used classes ran most of the suite again before
 * their first mutant (a whole-core run used 34 CPU-minutes with the stock plugin, 26 with this one). This
 * plugin discovers instead, and runs each test only when a mutant asks for it. During coverage it still runs
 * every test once, as PIT needs; a parameterized or dynamic test is one unit there and here, so the names
 * match without running its invocations.
 *
 * <p>Found by PIT through {@code META-INF/services} on the test class path, ahead of the stock plugin (lower
 * {@link Configuration#priority() priority}).
 */
public final class DiscoverWithoutRunningPlugin implements TestPluginFactory {

    /** Before the stock JUnit 5 plugin, whose configuration has the default priority 10. */
    static final int PRIORITY = 1;

    @Override
    public String description() {
        return "JUnit Platform tests found without running them in mutation minions";
    }

    @Override
    public String name() {
        return "mero-junit-platform";
    }

    @Override
    public Configuration createTestFrameworkConfiguration(TestGroupConfig groups, ClassByteArraySource source,
            Collection<String> excludedRunners, Collection<String> includedTestMethods) {
        TestUnitFinder finder = new PlatformTestUnitFinder(groups, includedTestMethods);
        return new Configuration() {
            @Override
            public int priority() {
                return PRIORITY;
            }

            @Override
            public TestUnitFinder testUnitFinder() {
                return finder;
            }

            @Override
            public TestSuiteFinder testSuiteFinder() {
                return testClass -> List.of();
            }

            @Override
            public Optional<PitHelpError> verifyEnvironment() {
                return Optional.empty();
            }
        };
    }
}
