package dev.mero.pit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.pitest.testapi.Configuration;
import org.pitest.testapi.Description;
import org.pitest.testapi.ExecutedInDiscovery;
import org.pitest.testapi.NullExecutionListener;
import org.pitest.testapi.ResultCollector;
import org.pitest.testapi.TestGroupConfig;
import org.pitest.testapi.TestPluginFactory;
import org.pitest.testapi.TestUnit;
import org.pitest.testapi.TestUnitExecutionListener;
import org.pitest.testapi.TestUnitFinder;

class DiscoverWithoutRunningPluginTest {

    @BeforeEach
    @AfterEach
    void reset() {
        SampleCases.RAN.clear();
        SampleCases.failing = false;
    }

    @Test
    void aMutationMinionFindsEveryUnitWithoutRunningAnyTest() {
        List<TestUnit> units = finder(TestGroupConfig.emptyConfig()).findTestUnits(SampleCases.class,
                new NullExecutionListener());

        assertThat(SampleCases.RAN).isEmpty();
        assertThat(names(units)).containsExactlyInAnyOrder("[method:plain()]", "[method:failsWhenAsked()]",
                "[method:tagged()]", "[test-template:each(int)]", "[nested-class:Inner]/[method:inner()]");
    }

    @Test
    void coverageRunsEachTestOnceUnderTheNamesAMinionFinds() {
        Recording listener = new Recording();
        List<TestUnit> covered = finder(TestGroupConfig.emptyConfig()).findTestUnits(SampleCases.class, listener);

        assertThat(SampleCases.RAN).containsExactlyInAnyOrder("plain", "failsWhenAsked", "tagged", "each1",
                "each2", "each3", "inner");
        List<TestUnit> found = finder(TestGroupConfig.emptyConfig()).findTestUnits(SampleCases.class,
                new NullExecutionListener());
        assertThat(names(covered)).containsExactlyInAnyOrderElementsOf(names(found));
        assertThat(listener.started).containsExactlyInAnyOrderElementsOf(names(found));
        assertThat(listener.passed).containsExactlyInAnyOrderElementsOf(names(found));
        assertThat(covered).allMatch(unit -> unit instanceof ExecutedInDiscovery);
    }

    @Test
    void aFailingInvocationFailsItsWholeParameterizedUnitDuringCoverage() {
        SampleCases.failing = true;
        Recording listener = new Recording();

        finder(TestGroupConfig.emptyConfig()).findTestUnits(SampleCases.class, listener);

        assertThat(listener.failed).containsExactlyInAnyOrder("[method:failsWhenAsked()]",
                "[test-template:each(int)]");
        assertThat(listener.passed).containsExactlyInAnyOrder("[method:plain()]", "[method:tagged()]",
                "[nested-class:Inner]/[method:inner()]");
    }

    @Test
    void aUnitRunsOnlyItsOwnTestsAndReportsTheirFailure() {
        List<TestUnit> units = finder(TestGroupConfig.emptyConfig()).findTestUnits(SampleCases.class,
                new NullExecutionListener());

        Collected each = run(unit(units, "[test-template:each(int)]"));
        assertThat(SampleCases.RAN).containsExactly("each1", "each2", "each3");
        assertThat(each.started).isTrue();
        assertThat(each.failure).isNull();

        SampleCases.RAN.clear();
        SampleCases.failing = true;
        Collected failing = run(unit(units, "[method:failsWhenAsked()]"));
        assertThat(SampleCases.RAN).containsExactly("failsWhenAsked");
        assertThat(failing.failure).hasMessage("asked to fail");

        SampleCases.RAN.clear();
        Collected invocation = run(unit(units, "[test-template:each(int)]"));
        assertThat(SampleCases.RAN).containsExactly("each1", "each2", "each3");
        assertThat(invocation.failure).hasMessage("the second invocation was asked to fail");
    }

    @Test
    void excludedTagsAreLeftOutAndANestedHelperIsNoTestClass() {
        TestUnitFinder finder = finder(new TestGroupConfig(List.of("slow"), List.of()));

        assertThat(names(finder.findTestUnits(SampleCases.class, new NullExecutionListener())))
                .doesNotContain("[method:tagged()]")
                .contains("[method:plain()]");
        assertThat(finder.findTestUnits(SampleCases.Helper.class, new NullExecutionListener())).isEmpty();
    }

    @Test
    void pitFindsThePluginOnTheTestClassPathAheadOfTheStockOne() {
        assertThat(ServiceLoader.load(TestPluginFactory.class).stream().map(ServiceLoader.Provider::type))
                .contains(DiscoverWithoutRunningPlugin.class);
        Configuration configuration = new DiscoverWithoutRunningPlugin()
                .createTestFrameworkConfiguration(TestGroupConfig.emptyConfig(), null, List.of(), List.of());
        assertThat(configuration.priority()).isLessThan(Configuration.DEFAULT_PRIORITY);
        assertThat(configuration.verifyEnvironment()).isEmpty();
    }

    private static TestUnitFinder finder(TestGroupConfig groups) {
        return new DiscoverWithoutRunningPlugin()
                .createTestFrameworkConfiguration(groups, null, List.of(), List.of())
                .testUnitFinder();
    }

    /** The unique ids below the class segment, e.g. {@code [method:plain()]}. */
    private static List<String> names(List<TestUnit> units) {
        return units.stream().map(unit -> shortName(unit.getDescription())).toList();
    }

    private static String shortName(Description description) {
        String name = description.getName();
        return name.substring(name.indexOf("]/[", name.indexOf("[class:")) + 2);
    }

    private static TestUnit unit(List<TestUnit> units, String name) {
        return units.stream().filter(u -> shortName(u.getDescription()).equals(name)).findFirst().orElseThrow();
    }

    private static Collected run(TestUnit unit) {
        Collected collected = new Collected();
        unit.execute(collected);
        return collected;
    }

    private static final class Recording implements TestUnitExecutionListener {
        final List<String> started = new ArrayList<>();
        final List<String> passed = new ArrayList<>();
        final List<String> failed = new ArrayList<>();

        @Override
        public void executionStarted(Description description) {
            started.add(shortName(description));
        }

        @Override
        public void executionFinished(Description description, boolean pass) {
            (pass ? passed : failed).add(shortName(description));
        }

        @Override
        public void executionFinished(Description description, boolean pass, Throwable error) {
            executionFinished(description, pass);
        }
    }

    private static final class Collected implements ResultCollector {
        boolean started;
        Throwable failure;

        @Override
        public void notifyStart(Description description) {
            started = true;
        }

        @Override
        public void notifyEnd(Description description, Throwable error) {
            failure = error;
        }

        @Override
        public void notifyEnd(Description description) {
        }

        @Override
        public void notifySkipped(Description description) {
        }

        @Override
        public boolean shouldExit() {
            return false;
        }
    }
}
