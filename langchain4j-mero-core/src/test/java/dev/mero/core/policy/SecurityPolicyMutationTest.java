package dev.mero.core.policy;

import dev.mero.core.InvalidPolicyException;
import dev.mero.core.RetryBudgetExceededException;
import dev.mero.core.SecurityContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.limit.CallKey;
import dev.mero.core.limit.RetryBudget;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Policy-file edges PIT showed untested: the size limit, number bounds, optional limit and approval keys. */
class SecurityPolicyMutationTest {

    @TempDir
    Path tmp;

    Path dir;

    @BeforeEach
    void setUp() throws IOException {
        dir = tmp.toRealPath();
    }

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    @Test
    void aFileOfExactlyTheMaximumSizeIsRead() throws IOException {
        String json = "{\"name\": \"big\"}";
        Path file = write("big.json", json + " ".repeat(SecurityPolicy.MAX_FILE_BYTES - json.length()));

        assertThat(Files.size(file)).isEqualTo(SecurityPolicy.MAX_FILE_BYTES);
        assertThat(SecurityPolicy.load(file).name()).isEqualTo("big");
    }

    @Test
    void wholeNumbersAreAcceptedAtBothEndsOfTheirRange() throws IOException {
        SecurityContext lowest = SecurityPolicy.load(write("low.yaml", "limits: {rate: {permits: 1, per: PT1M}}\n"));
        SecurityContext highest = SecurityPolicy.load(write("high.yaml",
                "limits: {rate: {permits: 1000000, per: PT1M, burst: 1000000}}\n"));

        assertThat(lowest.rateLimiter()).hasValueSatisfying(l -> assertThat(l.limit().permits()).isEqualTo(1));
        assertThat(highest.rateLimiter()).hasValueSatisfying(l -> {
            assertThat(l.limit().permits()).isEqualTo(1_000_000);
            assertThat(l.limit().burst()).isEqualTo(1_000_000);
        });
    }

    @Test
    void numbersOutsideTheRangeOrOfTheWrongKindNameTheValue() throws IOException {
        Path zero = write("zero.yaml", "limits: {rate: {permits: 0, per: PT1M}}\n");
        Path flag = write("flag.yaml", "limits: {rate: {permits: true, per: PT1M}}\n");

        assertThatThrownBy(() -> SecurityPolicy.load(zero))
                .isInstanceOf(InvalidPolicyException.class)
                .hasMessage("Policy file '" + zero + "', field 'limits.rate.permits': expected a whole number from 1 "
                        + "to 1000000, got '0'");
        assertThatThrownBy(() -> SecurityPolicy.load(flag))
                .isInstanceOf(InvalidPolicyException.class)
                .hasMessage("Policy file '" + flag + "', field 'limits.rate.permits': expected a whole number from 1 "
                        + "to 1000000, got 'true'");
    }

    @Test
    void aNullListItemIsReportedAsNothing() throws IOException {
        Path file = write("null.yaml", "scopes: [~]\n");

        assertThatThrownBy(() -> SecurityPolicy.load(file))
                .isInstanceOf(InvalidPolicyException.class)
                .hasMessage("Policy file '" + file + "', field 'scopes[0]': expected a string, got nothing");
    }

    @Test
    void theRateBurstAndTheRetryBudgetsMaximumAreApplied() throws IOException {
        SecurityContext context = SecurityPolicy.load(write("limits.yaml",
                "limits:\n  rate: {permits: 60, per: PT1M, burst: 5}\n  retry_budget: {max_failures: 1, window: PT1M}\n"));

        assertThat(context.rateLimiter()).hasValueSatisfying(l -> assertThat(l.limit().burst()).isEqualTo(5));
        RetryBudget budget = context.retryBudget().orElseThrow();
        CallKey key = CallKey.of("read_file", "notes.txt");
        budget.recordFailure(key);
        assertThatThrownBy(() -> budget.check(key)).isInstanceOf(RetryBudgetExceededException.class);
    }

    @Test
    void aConsoleBackendTakesItsTimeout() throws IOException {
        SecurityContext context = SecurityPolicy.load(write("console.yaml",
                "approval: {backend: console, timeout: PT5S}\n"));

        assertThat(context.approval()).hasValueSatisfying(backend ->
                assertThat(backend).hasToString("ConsoleApproval{timeout=PT5S}"));
    }
}
