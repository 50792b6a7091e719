package dev.mero.pit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.pitest.testapi.Description;
import org.pitest.testapi.TestUnit;
import org.pitest.testapi.TestUnitExecutionListener;

/**
 * Runs a test class once for PIT's coverage and reports each unit's start and end to PIT's listener, which
 * records the code the unit covered in between. A failure anywhere inside a parameterized or dynamic test
 * fails its unit, so PIT still refuses a suite that does not pass unmutated.
 */
final class CoverageRun implements TestExecutionListener {

    private final PlatformTestUnitFinder finder;
    private final Class<?> testClass;
    private final TestUnitExecutionListener listener;
    private final Map<String, TestUnit> units = new LinkedHashMap<>();
    private final Map<String, Throwable> failures = new HashMap<>();
    private TestPlan plan;

    CoverageRun(PlatformTestUnitFinder finder, Class<?> testClass, TestUnitExecutionListener listener) {
        this.finder = finder;
        this.testClass = testClass;
        this.listener = listener;
    }

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        this.plan = testPlan;
    }

    @Override
    public void executionStarted(TestIdentifier id) {
        if (id.equals(PlatformTestUnitFinder.unitOf(plan, id)) && finder.isIncluded(id)) {
            units.put(id.getUniqueId(), finder.unit(testClass, id));
            listener.executionStarted(description(id));
        }
    }

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        TestIdentifier unit = PlatformTestUnitFinder.unitOf(plan, id);
        boolean failed = result.getStatus() == TestExecutionResult.Status.FAILED;
        if (unit == null) {
            // a class or engine that failed outside any test (a failing @BeforeAll): a failed unit of its own,
            // as the stock plugin reports it
            if (failed) {
                units.putIfAbsent(id.getUniqueId(), finder.unit(testClass, id));
                listener.executionFinished(description(id), false, result.getThrowable().orElse(null));
            }
            return;
        }
        if (!units.containsKey(unit.getUniqueId())) {
            return;
        }
        if (failed) {
            failures.putIfAbsent(unit.getUniqueId(),
                    result.getThrowable().orElseGet(() -> new AssertionError(id.getDisplayName() + " failed")));
        }
        if (unit.equals(id)) {
            Throwable failure = failures.get(id.getUniqueId());
            if (failure == null) {
                listener.executionFinished(description(id), true);
            } else {
                listener.executionFinished(description(id), false, failure);
            }
        }
    }

    List<TestUnit> units() {
        return new ArrayList<>(units.values());
    }

    private Description description(TestIdentifier id) {
        return new Description(id.getUniqueId(), testClass);
    }
}
