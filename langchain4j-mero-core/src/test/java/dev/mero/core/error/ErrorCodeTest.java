package dev.mero.core.error;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

class ErrorCodeTest {

    @ParameterizedTest
    @CsvSource({
            "AUTH_FAILED,        auth_failed,        401, false,",
            "SCOPE_DENIED,       scope_denied,       403, false,",
            "RATE_LIMITED,       rate_limited,       429, true,",
            "INVALID_INPUT,      invalid_input,      400, false,",
            "SOURCE_UNAVAILABLE, source_unavailable, 503, true,  30",
            "INTERNAL_ERROR,     internal_error,     500, true,",
            "PATH_DENIED,        path_denied,        403, false,",
            "PERMISSION_DENIED,  permission_denied,  403, false,",
            "COMMAND_DENIED,     command_denied,     403, false,",
            "APPROVAL_DENIED,    approval_denied,    403, false,",
            "APPROVAL_TIMEOUT,   approval_timeout,   504, false,",
            "OPERATION_FAILED,   operation_failed,   422, false,",
            "RETRY_EXHAUSTED,    retry_exhausted,    400, false,",
            "DENIED,             denied,             403, false,",
            "POLICY_STORE_UNAVAILABLE, policy_store_unavailable, 503, true, 30"
    })
    void theDocumentedTable(ErrorCode code, String text, int status, boolean retry, Integer retryAfterSeconds) {
        assertThat(code.code()).isEqualTo(text);
        assertThat(code.status()).isEqualTo(status);
        assertThat(code.retry()).isEqualTo(retry);
        assertThat(code.retryAfterSeconds()).isEqualTo(retryAfterSeconds);
        assertThat(ErrorCode.fromCode(text)).contains(code);
    }

    @Test
    void theTableAboveCoversEveryConstant() {
        assertThat(ErrorCode.values()).hasSize(15);
        assertThat(Arrays.stream(ErrorCode.values()).map(ErrorCode::code)).doesNotHaveDuplicates();
    }

    @ParameterizedTest
    @EnumSource(ErrorCode.class)
    void callerErrorsSayRetryingWontHelpAndTransientOnesSayWhenToRetry(ErrorCode code) {
        if (code.retry()) {
            assertThat(code.guidance()).startsWith("Transient: ");
        } else {
            assertThat(code.guidance()).containsAnyOf("won't help", "Do not retry", "stop retrying");
        }
    }

    @Test
    void anUnknownCodeIsEmpty() {
        assertThat(ErrorCode.fromCode("no_such_code")).isEmpty();
        assertThat(ErrorCode.fromCode(null)).isEmpty();
        assertThat(ErrorCode.fromCode("SCOPE_DENIED")).isEmpty();
    }
}
