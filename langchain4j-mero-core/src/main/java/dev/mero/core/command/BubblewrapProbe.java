package dev.mero.core.command;

import dev.mero.core.message.Messages;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Finds out, once per JVM and {@code bwrap} executable, whether the sandbox can run here: whether the file
 * is there and whether it can create its namespaces and mounts (it cannot on kernels without unprivileged user
 * namespaces, or in containers that forbid them). The answer is cached; a failure is logged once, with
 * {@code bwrap}'s own message, for the operator.
 */
final class BubblewrapProbe {

    private static final Logger LOGGER = LoggerFactory.getLogger(BubblewrapProbe.class);
    private static final long PROBE_TIMEOUT_SECONDS = 20;
    private static final int MAX_MESSAGE_BYTES = 4096;
    private static final List<String> TRUE_PROGRAMS = List.of("/usr/bin/true", "/bin/true");
    private static final Map<Path, Availability> CACHE = new ConcurrentHashMap<>();

    private BubblewrapProbe() {
    }

    /**
     * Whether the sandbox works with this executable.
     *
     * @param bubblewrap the {@code bwrap} executable
     * @return the cached answer
     */
    static Availability check(Path bubblewrap) {
        return CACHE.computeIfAbsent(bubblewrap, BubblewrapProbe::probe);
    }

    /**
     * The outcome of a probe.
     *
     * @param available whether sandboxed commands can run
     * @param problem   for a refusal: what is wrong, in words for the model (no host paths)
     * @param detail    for a refusal: the executable's path and {@code bwrap}'s own message, for the audit log
     */
    record Availability(boolean available, String problem, String detail) {
    }

    /**
     * Waits for the probe to end. An interrupt does not cut the probe short (its verdict is cached for the
     * whole JVM); the flag is set again afterwards.
     */
    private static boolean awaitExit(Process process) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PROBE_TIMEOUT_SECONDS);
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return process.waitFor(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static Availability probe(Path bubblewrap) {
        if (!Files.isRegularFile(bubblewrap) || !Files.isExecutable(bubblewrap)) {
            return unavailable("bubblewrap ('bwrap') is not installed on this machine",
                    Messages.quote(bubblewrap.toString()) + " is not an executable file. Install the Debian package "
                            + "'bubblewrap' (apt-get install bubblewrap) or configure the executable's path "
                            + "(commands.sandbox.bubblewrap)");
        }
        String program = TRUE_PROGRAMS.stream().filter(p -> Files.isExecutable(Path.of(p))).findFirst()
                .orElse(TRUE_PROGRAMS.get(0));
        ProcessBuilder builder = new ProcessBuilder(Bubblewrap.probe(bubblewrap, program))
                .redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.PIPE);
        builder.environment().clear();
        String output;
        int exit;
        try {
            Process process = builder.start();
            process.getOutputStream().close();
            try (InputStream in = process.getInputStream()) {
                output = new String(in.readNBytes(MAX_MESSAGE_BYTES), StandardCharsets.UTF_8).strip();
            }
            if (!awaitExit(process)) {
                process.destroyForcibly();
                output = "no answer within " + PROBE_TIMEOUT_SECONDS + " s";
            }
            exit = process.isAlive() ? -1 : process.exitValue();
        } catch (IOException e) {
            output = e.getMessage();
            exit = -1;
        }
        if (exit == 0) {
            return new Availability(true, "", "");
        }
        return unavailable("bubblewrap ('bwrap') is installed but cannot create its namespaces on this machine",
                Messages.quote(bubblewrap.toString()) + " exited with " + exit + ": " + output + ". It needs Linux "
                        + "with root or unprivileged user namespaces (a container must allow them, for one without "
                        + "a seccomp profile that blocks unshare) and bubblewrap 0.8 or later");
    }

    /**
     * A refusal, logged once for the operator: the model gets {@code problem}; the cause and the remedy go to
     * the log and the audit detail, together with the explicit opt-out.
     */
    private static Availability unavailable(String problem, String cause) {
        String detail = cause + "; or opt out of the sandbox explicitly (commands.sandbox.enabled: false; "
                + "CommandSandbox.disabled())";
        LOGGER.error("The command sandbox is unavailable, so run_command is not offered and every command is "
                + "refused: {}.", detail);
        return new Availability(false, problem, detail);
    }
}
