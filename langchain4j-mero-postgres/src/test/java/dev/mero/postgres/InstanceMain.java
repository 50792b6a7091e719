package dev.mero.postgres;

import dev.mero.core.MeroToolsException;
import dev.mero.core.guard.Operation;
import dev.mero.core.RateLimitedException;
import dev.mero.core.SecurityContext;
import dev.mero.core.policy.SecurityPolicy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A second application instance, run in its own JVM by {@link CrossProcessTest}: it loads a policy file
 * whose {@code store:} section names the shared database (the password comes from the environment), and
 * then either races for rate-limit permits or waits for an approval that the other JVM gives.
 *
 * <pre>
 * java ... dev.mero.postgres.InstanceMain policy.yaml rate 40   # prints READY, waits for GO, prints allowed=N
 * java ... dev.mero.postgres.InstanceMain policy.yaml approve    # prints APPROVED or the refusal
 * </pre>
 */
public final class InstanceMain {

    private InstanceMain() {
    }

    /**
     * Runs one instance.
     *
     * @param args the policy file, the mode, and for {@code rate} the number of attempts
     * @throws Exception if the instance cannot run
     */
    public static void main(String[] args) throws Exception {
        SecurityContext context = SecurityPolicy.load(Path.of(args[0]));
        switch (args[1]) {
            case "rate" -> {
                System.out.println("READY");
                System.out.flush();
                BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                if (!"GO".equals(in.readLine())) {
                    throw new IllegalStateException("expected GO");
                }
                System.out.println("allowed=" + race(context, Integer.parseInt(args[2])));
            }
            case "approve" -> {
                try {
                    context.guard(Operation.FILE_WRITE, "/ws/plan.md");
                    System.out.println("APPROVED");
                } catch (MeroToolsException refused) {
                    System.out.println(refused.toModelText());
                }
            }
            default -> throw new IllegalArgumentException("unknown mode " + args[1]);
        }
        System.out.flush();
        System.exit(0);
    }

    /** Makes {@code attempts} reads on 4 threads and returns how many the shared rate limit let through. */
    static int race(SecurityContext context, int attempts) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> calls = new ArrayList<>();
            for (int i = 0; i < attempts; i++) {
                calls.add(threads.submit(() -> {
                    try {
                        context.guard(Operation.FILE_READ, "/ws/a.txt");
                        return true;
                    } catch (RateLimitedException limited) {
                        return false;
                    }
                }));
            }
            int allowed = 0;
            for (Future<Boolean> call : calls) {
                allowed += call.get(120, TimeUnit.SECONDS) ? 1 : 0;
            }
            return allowed;
        } finally {
            threads.shutdownNow();
        }
    }
}
