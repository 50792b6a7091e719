package dev.mero.core.command.guard;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** How git and rsync operands are told apart: local paths, URLs, remote helpers and the scp-like form. */
class RemoteOperandsTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            // operand               | remote | remote shell | remote helper
            "https://host/repo       | true   | false        | false",
            "ssh://host/repo         | true   | true         | false",
            "SSH://host/repo         | true   | true         | false",
            "git+ssh://host/repo     | true   | true         | false",
            "ssh+git://host/repo     | true   | true         | false",
            "file:///srv/repo        | false  | false        | false",
            "FILE:///srv/repo        | false  | false        | false",
            "host:repo               | true   | true         | false",
            "user@host:repo.git      | true   | true         | false",
            "x:                      | true   | true         | false",
            "ext::sh -c id           | true   | false        | true",
            "fd::3                   | true   | false        | true",
            "host::module            | true   | false        | true",
            "://host/repo            | false  | false        | false",
            ":repo                   | false  | false        | false",
            "::repo                  | false  | false        | false",
            "/srv/a:b                | false  | false        | false",
            "/srv/a::b               | false  | false        | false",
            "./a:b                   | false  | false        | false",
            "sub/a::b                | false  | false        | false",
            "-x:y                    | false  | false        | false",
            "repo                    | false  | false        | false"})
    void operandsAreClassified(String operand, boolean remote, boolean remoteShell, boolean remoteHelper) {
        assertThat(RemoteOperands.isRemote(operand)).as("remote %s", operand).isEqualTo(remote);
        assertThat(RemoteOperands.runsRemoteShell(operand)).as("remote shell %s", operand).isEqualTo(remoteShell);
        assertThat(RemoteOperands.usesRemoteHelper(operand)).as("remote helper %s", operand).isEqualTo(remoteHelper);
    }
}
