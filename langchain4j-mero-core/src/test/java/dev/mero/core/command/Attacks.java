package dev.mero.core.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.mero.core.MeroToolsException;
import dev.mero.core.SecurityContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs an attack through {@link SecurityContext#runCommand(String, String)} and asserts what an outsider
 * should find afterwards: a denial whose model-facing text gives the reason and names no host path, and a
 * file system exactly as it was. Also runs git for fixtures (never through the policy).
 */
final class Attacks {

    private Attacks() {
    }

    /**
     * Asserts that the command is denied with a message containing {@code reason}, that the model-facing text
     * contains no host path under {@code root}, and that nothing under {@code root} changed.
     *
     * @return the model-facing text, for further assertions
     */
    static String refused(Workspace w, SecurityContext context, String line, String directory, String reason) {
        return refused(w, context, line, directory, reason, List.of());
    }

    /**
     * As {@link #refused(Workspace, SecurityContext, String, String, String)}, where the agent wrote host paths
     * itself: the message may repeat those, and only those.
     */
    static String refused(Workspace w, SecurityContext context, String line, String directory, String reason,
                          List<String> writtenByTheAgent) {
        List<String> before = w.tree();
        MeroToolsException denial = catchThrowableOfType(MeroToolsException.class,
                () -> context.runCommand(line, directory));
        assertThat(denial).as("%s must be refused", line).isNotNull();
        assertThat(denial.isDenial()).isTrue();
        String text = denial.toModelText();
        assertThat(text).startsWith("Denied: Command ").contains(reason);
        String unwritten = text;
        for (String written : writtenByTheAgent) {
            unwritten = unwritten.replace(written, "");
        }
        assertThat(unwritten).as("no host path in %s", text).doesNotContain(w.root.toString());
        assertThat(w.tree()).isEqualTo(before);
        return text;
    }

    /** Runs git in {@code directory} for a fixture, with a fixed identity and no user configuration. */
    static String git(Path directory, String... arguments) {
        List<String> command = new ArrayList<>();
        command.add("git");
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true);
        Map<String, String> environment = builder.environment();
        environment.put("GIT_CONFIG_NOSYSTEM", "1");
        environment.put("GIT_CONFIG_GLOBAL", "/dev/null");
        environment.put("GIT_AUTHOR_NAME", "fixture");
        environment.put("GIT_AUTHOR_EMAIL", "fixture@example.invalid");
        environment.put("GIT_COMMITTER_NAME", "fixture");
        environment.put("GIT_COMMITTER_EMAIL", "fixture@example.invalid");
        try {
            Process process = builder.start();
            process.getOutputStream().close();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (process.waitFor() != 0) {
                throw new IllegalStateException("git " + String.join(" ", arguments) + " failed: " + output);
            }
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A repository in {@code directory} with every file in it committed. */
    static void repository(Path directory) {
        git(directory, "init", "-q", "-b", "main");
        git(directory, "add", "-A");
        git(directory, "commit", "-q", "-m", "fixture");
    }
}
