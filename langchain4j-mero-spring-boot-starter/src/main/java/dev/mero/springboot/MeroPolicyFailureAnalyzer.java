package dev.mero.springboot;

import dev.mero.core.InvalidPolicyException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a policy the loader refused into Spring Boot's "APPLICATION FAILED TO START" report with the loader's
 * message (file, field and value) instead of a stack of bean-creation exceptions.
 */
class MeroPolicyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidPolicyException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidPolicyException cause) {
        return new FailureAnalysis(cause.getMessage(), "Fix the policy file that mero.policy names (see "
                + "docs/policy-files.md), or remove mero.policy to start without the mero tools.", cause);
    }
}
