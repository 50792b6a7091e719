package dev.mero.core.policy;

import dev.mero.core.InvalidPolicyException;
import dev.mero.core.ScopeDeniedException;
import dev.mero.core.SecurityContext;
import dev.mero.core.guard.Operation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A key written with no value ({@code scopes: ~}, {@code permissions:}) is a mistake, never the same as leaving the
 * key out: left out, scopes are unrestricted and the ceiling is every permission.
 */
class SecurityPolicyNullValueTest {

    @TempDir
    Path tmp;

    Path dir;

    @BeforeEach
    void setUp() throws IOException {
        dir = tmp.toRealPath();
        Files.createDirectories(dir.resolve("ws"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "scopes: ~                                             | scopes",
        "scopes:                                               | scopes",
        "permissions: ~                                        | permissions",
        "require_approval: ~                                   | require_approval",
        "approval: {require: ~, backend: approve}              | approval.require",
        "paths: [{path: ws, slug: ws, allow: [READ], deny: ~}] | paths[0].deny",
        "paths: [{path: ws, slug: ws, allow: ~}]               | paths[0].allow",
        "commands: {deny: ~}                                   | commands.deny",
    })
    void aKeyWithoutAValueIsRefused(String yaml, String field) throws IOException {
        Path file = Files.writeString(dir.resolve("policy.yaml"), "name: p\n" + yaml + "\n");

        assertThatThrownBy(() -> SecurityPolicy.load(file))
                .isInstanceOf(InvalidPolicyException.class)
                .hasMessage("Policy file '" + file + "', field '" + field + "': has no value; give one (an empty "
                        + "list is written []) or leave the key out");
    }

    @Test
    void anEmptyScopeListGrantsNothing() throws IOException {
        Path file = Files.writeString(dir.resolve("policy.yaml"), "name: p\npaths: [{path: ws, slug: ws, allow: [READ]}]\n"
                + "scopes: []\n");

        SecurityContext context = SecurityPolicy.load(file);

        assertThat(context.scopes().isRestricted()).isTrue();
        assertThatThrownBy(() -> context.guard(Operation.FILE_READ, "/ws/a.txt"))
                .isInstanceOf(ScopeDeniedException.class);
    }
}
