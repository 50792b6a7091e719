package dev.mero.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MeroMcpMainTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    @Test
    void aMissingPolicyFileFailsWithTheLoadersMessageAndWritesNothingToStdout() throws Exception {
        int status = run("--policy", dir.resolve("absent.yaml").toString());

        assertThat(status).isEqualTo(MeroMcpMain.EXIT_POLICY);
        assertThat(err()).startsWith("langchain4j-mero-mcp: Policy file '").contains("absent.yaml", "cannot be read");
        assertThat(out.size()).isZero();
    }

    @Test
    void aBrokenPolicyFailsWithTheLoadersMessage() throws Exception {
        Path policy = Files.writeString(dir.resolve("p.yaml"), "paths:\n  - path: .\n    slug: ws\n    alow: [READ]\n");

        int status = run("--policy", policy.toString());

        assertThat(status).isEqualTo(MeroMcpMain.EXIT_POLICY);
        assertThat(err()).contains("Policy file '", "alow");
        assertThat(out.size()).isZero();
    }

    @Test
    void aPolicyThatIsNotYamlOrJsonFails() throws Exception {
        Path policy = Files.writeString(dir.resolve("p.yaml"), "paths: [\n");

        assertThat(run("--policy=" + policy)).isEqualTo(MeroMcpMain.EXIT_POLICY);
        assertThat(err()).contains("is not valid YAML");
    }

    @Test
    void aWrongCommandLineIsAUsageError() throws Exception {
        assertThat(run()).isEqualTo(MeroMcpMain.EXIT_USAGE);
        assertThat(err()).contains("--policy is required", "Usage: java -jar langchain4j-mero-mcp.jar");
        err.reset();
        assertThat(run("--policy")).isEqualTo(MeroMcpMain.EXIT_USAGE);
        assertThat(err()).contains("--policy needs a value");
        err.reset();
        assertThat(run("--policy", "p.yaml", "--frobnicate")).isEqualTo(MeroMcpMain.EXIT_USAGE);
        assertThat(err()).contains("unknown argument --frobnicate");
        err.reset();
        assertThat(run("--policy", "p.yaml", "--approval-timeout", "soon")).isEqualTo(MeroMcpMain.EXIT_USAGE);
        assertThat(err()).contains("not an ISO-8601 duration");
        err.reset();
        assertThat(run("--policy", "p.yaml", "--approval-timeout", "PT0S")).isEqualTo(MeroMcpMain.EXIT_USAGE);
        assertThat(out.size()).isZero();
    }

    @Test
    void helpGoesToStderr() throws Exception {
        assertThat(run("--help")).isZero();
        assertThat(err()).startsWith("Usage:");
        assertThat(out.size()).isZero();
    }

    private int run(String... args) throws InterruptedException {
        return MeroMcpMain.run(args, new PrintStream(err, true, StandardCharsets.UTF_8),
                new ByteArrayInputStream(new byte[0]), out);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }
}
