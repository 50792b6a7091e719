package dev.mero.pit;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.platform.engine.Filter;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TagFilter;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.pitest.testapi.NullExecutionListener;
import org.pitest.testapi.TestGroupConfig;
import org.pitest.testapi.TestUnit;
import org.pitest.testapi.TestUnitExecutionListener;
import org.pitest.testapi.TestUnitFinder;

/**
 * Finds the test units of one test class: by discovery alone in a mutation minion (PIT passes a
 * {@link NullExecutionListener} there), by running the class during coverage (PIT passes the listener that
 * records each test's coverage).
 *
 * <p>A unit is a test, or a whole parameterized, repeated or dynamic test (a container declared by a method),
 * whose invocations only exist once it runs.
 */
final class PlatformTestUnitFinder implements TestUnitFinder {

    // one session for every discovery and run of this minion: the engines are found and set up once
    private final Launcher launcher = LauncherFactory.openSession().getLauncher();
    private final List<Filter<?>> filters = new ArrayList<>();
    private final Set<String> includedMethods;

    PlatformTestUnitFinder(TestGroupConfig groups, Collection<String> includedMethods) {
        List<String> excluded = nonEmpty(groups.getExcludedGroups());
        List<String> included = nonEmpty(groups.getIncludedGroups());
        if (!excluded.isEmpty()) {
            filters.add(TagFilter.excludeTags(excluded));
        }
        if (!included.isEmpty()) {
            filters.add(TagFilter.includeTags(included));
        }
        this.includedMethods = Set.copyOf(includedMethods);
    }

    @Override
    public List<TestUnit> findTestUnits(Class<?> testClass, TestUnitExecutionListener listener) {
        // a nested class that is not @Nested is no test class of its own; an @Nested one is found both alone and
        // through its enclosing class, as the stock plugin does
        if (testClass.getEnclosingClass() != null && !testClass.isAnnotationPresent(Nested.class)) {
            return List.of();
        }
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(testClass.getName()))
                .filters(filters.toArray(new Filter<?>[0]))
                .build();
        if (listener instanceof NullExecutionListener) {
            return discover(testClass, request);
        }
        CoverageRun run = new CoverageRun(this, testClass, listener);
        launcher.execute(request, run);
        return run.units();
    }

    private List<TestUnit> discover(Class<?> testClass, LauncherDiscoveryRequest request) {
        TestPlan plan = launcher.discover(request);
        List<TestUnit> units = new ArrayList<>();
        for (TestIdentifier root : plan.getRoots()) {
            collect(plan, root, testClass, units);
        }
        return units;
    }

    private void collect(TestPlan plan, TestIdentifier id, Class<?> testClass, List<TestUnit> units) {
        if (isUnit(id)) {
            if (isIncluded(id)) {
                units.add(unit(testClass, id));
            }
            return;
        }
        for (TestIdentifier child : plan.getChildren(id)) {
            collect(plan, child, testClass, units);
        }
    }

    PlatformTestUnit unit(Class<?> testClass, TestIdentifier id) {
        return new PlatformTestUnit(launcher, testClass, id.getUniqueId());
    }

    /** The unit an executed identifier belongs to: its outermost method-declared container, else itself if a test. */
    static TestIdentifier unitOf(TestPlan plan, TestIdentifier id) {
        TestIdentifier unit = id.isTest() ? id : null;
        for (TestIdentifier at = id; at != null; at = plan.getParent(at).orElse(null)) {
            if (isDeclaredContainer(at)) {
                unit = at;
            }
        }
        return unit;
    }

    private static boolean isUnit(TestIdentifier id) {
        return isDeclaredContainer(id) || id.isTest();
    }

    /** A parameterized, repeated or factory test: a container whose source is the method that declares it. */
    private static boolean isDeclaredContainer(TestIdentifier id) {
        return id.isContainer() && id.getSource().filter(MethodSource.class::isInstance).isPresent();
    }

    boolean isIncluded(TestIdentifier id) {
        return includedMethods.isEmpty() || id.getSource()
                .filter(MethodSource.class::isInstance)
                .map(source -> includedMethods.contains(((MethodSource) source).getMethodName()))
                .orElse(false);
    }

    private static List<String> nonEmpty(List<String> tags) {
        return tags.stream().filter(tag -> !tag.isEmpty()).toList();
    }
}
