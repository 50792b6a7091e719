package dev.mero.springboot;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** Matches when {@code mero.policy} is set to a non-blank value; {@link Absent} is its opposite. */
class PolicyPresent extends SpringBootCondition {

    static final String PROPERTY = "mero.policy";

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        String value = context.getEnvironment().getProperty(PROPERTY);
        return value != null && !value.isBlank() ? ConditionOutcome.match(PROPERTY + " is set")
                : ConditionOutcome.noMatch(PROPERTY + " is not set");
    }

    /** Matches when {@code mero.policy} is unset or blank. */
    static final class Absent extends SpringBootCondition {

        private final PolicyPresent present = new PolicyPresent();

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            ConditionOutcome outcome = present.getMatchOutcome(context, metadata);
            return outcome.isMatch() ? ConditionOutcome.noMatch(outcome.getMessage())
                    : ConditionOutcome.match(outcome.getMessage());
        }
    }
}
