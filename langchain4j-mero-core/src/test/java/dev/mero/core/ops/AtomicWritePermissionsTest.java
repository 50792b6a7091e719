package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file replaced by an atomic write keeps the permissions it had: a script stays executable, a key private. */
class AtomicWritePermissionsTest {

    @TempDir
    Path temp;

    @Test
    void rewritingAFileKeepsItsPermissions() throws IOException {
        OpsWorkspace w = new OpsWorkspace(temp);
        Path script = w.ws.resolve("run.sh");
        Files.writeString(script, "#!/bin/sh\necho old\n");
        Set<PosixFilePermission> executable = PosixFilePermissions.fromString("rwxr-x---");
        Files.setPosixFilePermissions(script, executable);
        Path key = w.ws.resolve("private-notes.txt");
        Files.writeString(key, "old key\n");
        Set<PosixFilePermission> privateToOwner = PosixFilePermissions.fromString("rw-------");
        Files.setPosixFilePermissions(key, privateToOwner);
        MeroOperations ops = w.ops();

        ops.call("write_file", "{\"path\":\"/ws/run.sh\",\"content\":\"#!/bin/sh\\necho new\\n\"}");
        ops.call("write_file", "{\"path\":\"/ws/private-notes.txt\",\"content\":\"new key\\n\"}");

        assertThat(Files.readString(script)).isEqualTo("#!/bin/sh\necho new\n");
        assertThat(Files.getPosixFilePermissions(script)).isEqualTo(executable);
        assertThat(Files.readString(key)).isEqualTo("new key\n");
        assertThat(Files.getPosixFilePermissions(key)).isEqualTo(privateToOwner);
    }
}
