package dev.mero.pit;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.launcher.EngineFilter;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.pitest.testapi.AbstractTestUnit;
import org.pitest.testapi.Description;
import org.pitest.testapi.ExecutedInDiscovery;
import org.pitest.testapi.ResultCollector;

/**
 * One test, or one whole parameterized or dynamic test, run by its JUnit Platform unique id. It fails if
 * anything inside it fails. It is {@link ExecutedInDiscovery}: during coverage it already ran while it was found.
 */
final class PlatformTestUnit extends AbstractTestUnit implements ExecutedInDiscovery {

    private final Launcher launcher;
    private final String engineId;

    PlatformTestUnit(Launcher launcher, Class<?> testClass, String uniqueId) {
        super(new Description(uniqueId, testClass));
        this.launcher = launcher;
        this.engineId = UniqueId.parse(uniqueId).getEngineId().orElseThrow();
    }

    @Override
    public void execute(ResultCollector collector) {
        Outcome outcome = new Outcome();
        collector.notifyStart(getDescription());
        // only the unit's own engine: another engine would still be asked to discover, and to run its empty tree
        launcher.execute(LauncherDiscoveryRequestBuilder.request()
                .selectors(selectUniqueId(getDescription().getName()))
                .filters(EngineFilter.includeEngines(engineId))
                .build(), outcome);
        if (outcome.failure != null) {
            collector.notifyEnd(getDescription(), outcome.failure);
        } else if (outcome.skipped && !outcome.ran) {
            collector.notifySkipped(getDescription());
        } else {
            collector.notifyEnd(getDescription());
        }
    }

    private static final class Outcome implements TestExecutionListener {
        Throwable failure;
        boolean ran;
        boolean skipped;

        @Override
        public void executionSkipped(TestIdentifier id, String reason) {
            skipped = true;
        }

        @Override
        public void executionFinished(TestIdentifier id, TestExecutionResult result) {
            if (id.isTest()) {
                ran = true;
            }
            if (result.getStatus() == TestExecutionResult.Status.FAILED && failure == null) {
                failure = result.getThrowable()
                        .orElseGet(() -> new AssertionError(id.getDisplayName() + " failed"));
            }
        }
    }
}
