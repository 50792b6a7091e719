package dev.mero.core.error;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mero.core.ApprovalDeniedException;
import dev.mero.core.ApprovalTimeoutException;
import dev.mero.core.CommandDeniedException;
import dev.mero.core.InvalidInputException;
import dev.mero.core.MeroToolsException;
import dev.mero.core.OperationFailedException;
import dev.mero.core.PathAccessDeniedException;
import dev.mero.core.PermissionDeniedException;
import dev.mero.core.RateLimitedException;
import dev.mero.core.RetryBudgetExceededException;
import dev.mero.core.ScopeDeniedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ToolErrorTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest
    @EnumSource(ErrorCode.class)
    void everyCodeRendersTheSixSnakeCaseKeysInOrder(ErrorCode code) throws IOException {
        ToolError error = ToolError.of(code, "Something about " + code.code() + ".");

        JsonNode json = JSON.readTree(error.toJson());

        assertThat(json.fieldNames()).toIterable()
                .containsExactly("error_code", "message", "status", "retry", "retry_after_seconds", "detail");
        assertThat(json.get("error_code").asText()).isEqualTo(code.code());
        assertThat(json.get("message").asText()).isEqualTo("Something about " + code.code() + ".");
        assertThat(json.get("status").isInt()).isTrue();
        assertThat(json.get("status").asInt()).isEqualTo(code.status());
        assertThat(json.get("retry").isBoolean()).isTrue();
        assertThat(json.get("retry").asBoolean()).isEqualTo(code.retry());
        if (code == ErrorCode.SOURCE_UNAVAILABLE || code == ErrorCode.POLICY_STORE_UNAVAILABLE) {
            assertThat(json.get("retry_after_seconds").asInt()).isEqualTo(30);
        } else {
            assertThat(json.get("retry_after_seconds").isNull()).isTrue();
        }
        assertThat(json.get("detail").asText()).isEqualTo(code.guidance());
        assertThat(ToolError.fromJson(error.toJson())).isEqualTo(error);
    }

    @Test
    void theExactJsonOfAScopeDenial() {
        ToolError error = ToolError.from(ScopeDeniedException.missing("worker_1", "files:file:write",
                List.of("files:*:read")));

        assertThat(error.toJson()).isEqualTo("{\"error_code\":\"scope_denied\",\"message\":\"Context 'worker_1' "
                + "lacks scope 'files:file:write' (has: ['files:*:read']). Ask for a caller with that scope or use an "
                + "operation your scopes allow.\",\"status\":403,\"retry\":false,\"retry_after_seconds\":null,"
                + "\"detail\":\"Caller error: retrying without changing the request won't help. Use an operation "
                + "your scopes allow, or ask the user for a caller with the required scope.\"}");
        assertThat(error).hasToString(error.toJson());
    }

    @Test
    void absentValuesAreWrittenAsNull() throws IOException {
        ToolError error = ToolError.builder().errorCode("custom_code").message("m").status(418).build();

        JsonNode json = JSON.readTree(error.toJson());

        assertThat(json.get("retry").asBoolean()).isFalse();
        assertThat(json.has("retry_after_seconds")).isTrue();
        assertThat(json.get("retry_after_seconds").isNull()).isTrue();
        assertThat(json.has("detail")).isTrue();
        assertThat(json.get("detail").isNull()).isTrue();
    }

    static Stream<Arguments> libraryExceptions() {
        return Stream.of(
                Arguments.of(new PathAccessDeniedException("Path 'x' is not covered."), ErrorCode.PATH_DENIED),
                Arguments.of(new PermissionDeniedException("Context 'c' lacks permission(s) ['DELETE']."),
                        ErrorCode.PERMISSION_DENIED),
                Arguments.of(new CommandDeniedException("Command 'rm' is blocked."), ErrorCode.COMMAND_DENIED),
                Arguments.of(new ApprovalDeniedException("Action 'WRITE: a' was not approved."),
                        ErrorCode.APPROVAL_DENIED),
                Arguments.of(new ApprovalTimeoutException("No backend in chain could resolve approval."),
                        ErrorCode.APPROVAL_TIMEOUT),
                Arguments.of(new InvalidInputException("The path is empty."), ErrorCode.INVALID_INPUT),
                Arguments.of(new OperationFailedException("'a' is not a file or does not exist."),
                        ErrorCode.OPERATION_FAILED),
                Arguments.of(new ScopeDeniedException("Context 'c' lacks scope 'a:b:c'."), ErrorCode.SCOPE_DENIED),
                Arguments.of(RetryBudgetExceededException.exhausted("read_file", 3), ErrorCode.RETRY_EXHAUSTED),
                Arguments.of(new MeroToolsException("Denied by policy."), ErrorCode.DENIED));
    }

    @ParameterizedTest
    @MethodSource("libraryExceptions")
    void mapsEveryLibraryExceptionToItsCodeKeepingItsMessage(MeroToolsException failure, ErrorCode code) {
        ToolError error = ToolError.from(failure);

        assertThat(error.errorCode()).isEqualTo(code.code()).isEqualTo(failure.errorCode());
        assertThat(error.message()).isEqualTo(failure.getMessage());
        assertThat(error.status()).isEqualTo(code.status());
        assertThat(error.retry()).isEqualTo(code.retry());
        assertThat(error.retryAfterSeconds()).isNull();
        assertThat(error.detail()).isEqualTo(code.guidance());
    }

    @Test
    void aRateLimitCarriesItsRetryAfter() {
        ToolError error = ToolError.from(RateLimitedException.exceeded("worker_1", "60 calls per minute", 7));

        assertThat(error.errorCode()).isEqualTo("rate_limited");
        assertThat(error.status()).isEqualTo(429);
        assertThat(error.retry()).isTrue();
        assertThat(error.retryAfterSeconds()).isEqualTo(7);
        assertThat(error.message()).isEqualTo("Context 'worker_1' exceeded its rate limit of 60 calls per minute. "
                + "Wait 7 second(s) before calling again; calls made sooner are refused the same way.");
        assertThat(error.toJson()).contains("\"retry_after_seconds\":7");
    }

    @Test
    void anyOtherExceptionIsAnInternalErrorThatLeaksNothing() {
        RuntimeException bug = new IllegalStateException("cannot open /home/alice/.ssh/id_rsa: token=sk-SECRET",
                new IOException("/etc/shadow"));

        ToolError error = ToolError.from(bug);

        assertThat(error.errorCode()).isEqualTo("internal_error");
        assertThat(error.status()).isEqualTo(500);
        assertThat(error.retry()).isTrue();
        assertThat(error.message()).isEqualTo("The tool failed because of an unexpected internal error; its "
                + "details are withheld from this message.");
        assertThat(error.toJson()).doesNotContain("alice", "id_rsa", "SECRET", "shadow", "IllegalState",
                "IOException", "at dev.", "Exception");
    }

    @Test
    void findsALibraryExceptionInsideTheWrappersReflectionAdds() {
        PathAccessDeniedException denied = new PathAccessDeniedException("Path '/etc' is not covered.");

        ToolError error = ToolError.from(new UndeclaredThrowableException(new InvocationTargetException(denied)));

        assertThat(error.errorCode()).isEqualTo("path_denied");
        assertThat(error.message()).isEqualTo("Path '/etc' is not covered.");
    }

    @Test
    void aBugThatCarriesALibraryExceptionIsABug() {
        PathAccessDeniedException denied = new PathAccessDeniedException("Path '/etc' is not covered.");

        assertThat(ToolError.from(new CompletionException(denied)).errorCode()).isEqualTo("internal_error");
        assertThat(ToolError.from(new RuntimeException(denied)).errorCode()).isEqualTo("internal_error");
        assertThat(ToolError.from(new UncheckedIOException(new IOException(denied))).errorCode())
                .isEqualTo("internal_error");
        assertThat(ToolError.from(new AssertionError("bug", denied)).errorCode()).isEqualTo("internal_error");
        assertThat(ToolError.from(new InvocationTargetException(new IllegalStateException(denied))).errorCode())
                .isEqualTo("internal_error");
    }

    @Test
    void aLibraryExceptionBehindTooManyWrappersIsTreatedAsABug() {
        Throwable atLimit = new OperationFailedException("deep");
        for (int i = 0; i < ToolFailures.MAX_WRAPPERS; i++) {
            atLimit = new InvocationTargetException(atLimit);
        }
        Throwable beyond = new InvocationTargetException(atLimit);

        assertThat(ToolError.from(atLimit).errorCode()).isEqualTo("operation_failed");
        assertThat(ToolError.from(beyond).errorCode()).isEqualTo("internal_error");
    }

    @Test
    void aCyclicCauseChainEnds() {
        RuntimeException first = new RuntimeException("a");
        RuntimeException second = new RuntimeException("b", first);
        first.initCause(second);

        assertThat(ToolError.from(first).errorCode()).isEqualTo("internal_error");
    }

    @Test
    void anUnknownCodeOfALibraryExceptionIsKeptWithTheStatusOfItsKind() {
        MeroToolsException quotaDenial = new MeroToolsException("Quota used up.") {
            private static final long serialVersionUID = 1L;

            @Override
            public String errorCode() {
                return "quota_exceeded";
            }
        };
        MeroToolsException oddFailure = new OperationFailedException("Disk full.") {
            private static final long serialVersionUID = 1L;

            @Override
            public String errorCode() {
                return "Not A Code";
            }
        };

        ToolError denial = ToolError.from(quotaDenial);
        ToolError failure = ToolError.from(oddFailure);

        assertThat(denial.errorCode()).isEqualTo("quota_exceeded");
        assertThat(denial.status()).isEqualTo(403);
        assertThat(denial.detail()).isEqualTo(ErrorCode.DENIED.guidance());
        assertThat(failure.errorCode()).isEqualTo("operation_failed");
        assertThat(failure.status()).isEqualTo(422);
        assertThat(failure.message()).isEqualTo("Disk full.");
    }

    @Test
    void aLibraryExceptionWithoutAMessageGetsAGenericOne() {
        assertThat(ToolError.from(new CommandDeniedException(null)).message())
                .isEqualTo("The action was denied (command_denied).");
        assertThat(ToolError.from(new OperationFailedException(" ")).message()).isEqualTo("The action failed.");
    }

    @Test
    void theBuilderLetsLaterCallsOverrideACodesDefaults() {
        ToolError error = ToolError.builder()
                .errorCode(ErrorCode.SOURCE_UNAVAILABLE)
                .message("The orders database is down. Retry in a minute.")
                .retryAfterSeconds(60)
                .detail(null)
                .build();

        assertThat(error.status()).isEqualTo(503);
        assertThat(error.retry()).isTrue();
        assertThat(error.retryAfterSeconds()).isEqualTo(60);
        assertThat(error.detail()).isNull();
    }

    @Test
    void theBuilderValidates() {
        assertThatThrownBy(() -> ToolError.builder().errorCode("Bad-Code").message("m").status(400).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid error code 'Bad-Code': use lower-case snake_case such as 'invalid_input'");
        assertThatThrownBy(() -> ToolError.builder().errorCode(ErrorCode.INTERNAL_ERROR).message(" ").build())
                .hasMessage("ToolError 'internal_error' needs a non-blank message");
        assertThatThrownBy(() -> ToolError.builder().errorCode("custom").message("m").build())
                .hasMessage("ToolError 'custom' needs an HTTP-style status from 100 to 599, was null");
        assertThatThrownBy(() -> ToolError.builder().errorCode("custom").message("m").status(600).build())
                .hasMessage("ToolError 'custom' needs an HTTP-style status from 100 to 599, was 600");
        assertThatThrownBy(() -> ToolError.builder().errorCode(ErrorCode.RATE_LIMITED).message("m")
                .retryAfterSeconds(-1).build())
                .hasMessage("retryAfterSeconds must not be negative, was -1");
    }

    @Test
    void fromJsonAcceptsMissingOptionalKeysAndIgnoresUnknownOnes() {
        ToolError error = ToolError.fromJson("{\"error_code\":\"invalid_input\",\"message\":\"Bad.\",\"status\":400,"
                + "\"retry\":false,\"extra\":[1,2]}");

        assertThat(error).isEqualTo(ToolError.builder().errorCode("invalid_input").message("Bad.").status(400)
                .build());
    }

    @Test
    void fromJsonRejectsMalformedEnvelopes() {
        assertThatThrownBy(() -> ToolError.fromJson("[1]"))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("ToolError JSON must be an object");
        assertThatThrownBy(() -> ToolError.fromJson("{\"message\":\"m\",\"status\":400,\"retry\":false}"))
                .hasMessage("ToolError JSON lacks 'error_code'");
        assertThatThrownBy(() -> ToolError.fromJson("{\"error_code\":\"x\",\"message\":\"m\",\"status\":\"400\","
                + "\"retry\":false}"))
                .hasMessage("ToolError JSON has an invalid 'status': string");
        assertThatThrownBy(() -> ToolError.fromJson("{\"error_code\":\"x\",\"message\":\"m\",\"status\":400,"
                + "\"retry\":false,\"retry_after_seconds\":1.5}"))
                .hasMessage("ToolError JSON has an invalid 'retry_after_seconds': number");
        assertThatThrownBy(() -> ToolError.fromJson("{"))
                .hasMessageStartingWith("ToolError JSON is malformed: ");
        assertThatThrownBy(() -> ToolError.fromJson(" ".repeat(ToolError.MAX_JSON_LENGTH + 1)))
                .hasMessage("ToolError JSON of 65537 characters is longer than 65536");
    }

    @Test
    void theStatusRangeAndARetryAfterOfZeroAreAccepted() {
        for (int status : new int[] {100, 599}) {
            assertThat(ToolError.builder().errorCode("custom").message("m").status(status).build().status())
                    .isEqualTo(status);
        }
        assertThatThrownBy(() -> ToolError.builder().errorCode("custom").message("m").status(99).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(ToolError.builder().errorCode(ErrorCode.RATE_LIMITED).message("m").retryAfterSeconds(0).build()
                .retryAfterSeconds()).isZero();
    }

    @Test
    void aJsonEnvelopeOfExactlyTheMaximumLengthIsParsed() {
        String json = "{\"error_code\":\"invalid_input\",\"message\":\"Bad.\",\"status\":400,\"retry\":false}";
        String padded = json + " ".repeat(ToolError.MAX_JSON_LENGTH - json.length());

        assertThat(padded).hasSize(ToolError.MAX_JSON_LENGTH);
        assertThat(ToolError.fromJson(padded).errorCode()).isEqualTo("invalid_input");
    }
}
