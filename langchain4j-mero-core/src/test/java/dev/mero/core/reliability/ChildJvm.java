package dev.mero.core.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a {@link WriterProcess} in a child JVM, optionally inside a private mount namespace of its own. */
final class ChildJvm {

    private ChildJvm() {
    }

    /** Whether this machine lets us mount a tmpfs in a private mount namespace (root, or a user namespace). */
    static boolean canMountTmpfs(Path probe) throws IOException, InterruptedException {
        try {
            Process process = new ProcessBuilder("unshare", "-m", "--propagation", "private", "mount", "-t", "tmpfs",
                    "-o", "size=16k", "tmpfs", probe.toString()).redirectErrorStream(true).start();
            process.getInputStream().readAllBytes();
            return process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException noUnshare) {
            return false;
        }
    }

    /**
     * Mounts a tmpfs of {@code size} at {@code dir} in a new mount namespace, writes {@link WriterProcess#OLD} into
     * {@code dir/f.txt}, runs {@code extraSetup} (a shell fragment using {@code $d}), then the writer with
     * {@code args}; the mount vanishes when the child ends.
     *
     * @return the child's output lines
     */
    static List<String> runOnTmpfs(Path dir, String size, String extraSetup, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("unshare", "-m", "--propagation", "private", "sh", "-c",
                "d=$1; shift; mount -t tmpfs -o size=" + size + " tmpfs \"$d\" && printf 'old content\\n' > \"$d/f.txt\" "
                        + extraSetup + " && exec \"$@\"", "sh", dir.toString()));
        command.addAll(WriterProcess.javaCommand(args));
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("child output: %s", output).isZero();
        return output.lines().toList();
    }

    /** The value of the first line starting with {@code key + " "}. */
    static String line(List<String> lines, String key) {
        return lines.stream().filter(l -> l.startsWith(key + " ")).map(l -> l.substring(key.length() + 1))
                .findFirst().orElseThrow(() -> new AssertionError("no " + key + " in " + lines));
    }
}
