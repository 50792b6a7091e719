package dev.mero.examples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Runs one example agent, chosen with {@code -Dexample=<name>} (default {@code workspace}):
 *
 * <pre>
 * mvn -B -ntp -q -Pdemo -DskipTests package -Dexample=approval
 * </pre>
 *
 * <p>Offline by default: a scripted model plays a recorded session and nothing goes over the network. With
 * {@code OPENAI_API_KEY} set, a real OpenAI-compatible model does the work instead ({@code OPENAI_BASE_URL},
 * {@code OPENAI_MODEL}); see {@link ModelSelection}. Each example works in a temporary directory that is
 * deleted afterwards.
 */
public final class Examples {

    /** The example that runs when none is named. */
    public static final String DEFAULT_EXAMPLE = "workspace";

    private Examples() {
    }

    /**
     * Runs the example the system property {@code example} names.
     *
     * @param args none, {@code --offline} (keep the script even with a key) or {@code --openai}
     * @throws IOException if the example's files cannot be created or deleted
     */
    public static void main(String[] args) throws IOException {
        String name = System.getProperty("example", DEFAULT_EXAMPLE);
        Optional<Example> example = Example.named(name);
        if (example.isEmpty()) {
            System.err.println("There is no example '" + Transcript.printable(name) + "'.\n" + ModelSelection.USAGE);
            System.exit(2);
            return;
        }
        ModelSelection models = ModelSelection.from(args, System.getenv());
        if (models.problem() != null) {
            System.err.println(models.problem());
            System.exit(2);
            return;
        }
        Path root = Files.createTempDirectory("mero-example-");
        try {
            example.get().run(root, models, new Transcript(System.out));
        } catch (RuntimeException e) {
            Optional<String> explanation = models.explain(e);
            if (explanation.isEmpty()) {
                throw e;
            }
            System.out.flush();
            System.err.println(explanation.get());
            System.exit(1);
        } finally {
            DemoWorkspace.delete(root);
        }
    }
}
