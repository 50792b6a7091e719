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

/** The {@code --http} command line: its address forms, and the policies it refuses to serve before listening. */
class MeroMcpMainHttpTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) throws InterruptedException {
        return MeroMcpMain.run(args, new PrintStream(err, true, StandardCharsets.UTF_8),
                new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream());
    }

    @Test
    void anAddressIsAPortOrAHostAndAPortAndTheDefaultHostIsTheLoopback() {
        assertThat(MeroMcpMain.HttpAddress.parse("8080")).isEqualTo(new MeroMcpMain.HttpAddress("127.0.0.1", 8080));
        assertThat(MeroMcpMain.HttpAddress.parse("0.0.0.0:9000")).isEqualTo(new MeroMcpMain.HttpAddress("0.0.0.0", 9000));
        assertThat(MeroMcpMain.HttpAddress.parse("[::1]:65535")).isEqualTo(new MeroMcpMain.HttpAddress("::1", 65535));
        assertThat(MeroMcpMain.HttpAddress.parse("mcp.internal:1")).isEqualTo(new MeroMcpMain.HttpAddress("mcp.internal", 1));
        for (String bad : new String[] {"", "0", "65536", "x", ":80", "::1:80", "[::1]", "host:", "host:8o", "[a]b:80",
                "123456", "-1"}) {
            assertThat(MeroMcpMain.HttpAddress.parse(bad)).as(bad).isNull();
        }
    }

    @Test
    void aBadAddressIsAUsageError() throws InterruptedException {
        assertThat(run("--policy", "p.yaml", "--http", "localhost")).isEqualTo(MeroMcpMain.EXIT_USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--http localhost is not [<host>:]<port>");
    }

    @Test
    void aPolicyWithoutCredentialsOrWithAnUnreadableJwksIsNotServed() throws Exception {
        Files.createDirectories(dir.resolve("ws"));
        Path none = Files.writeString(dir.resolve("none.yaml"), "paths:\n  - {path: ws, slug: ws}\n");
        Path noKeys = Files.writeString(dir.resolve("nokeys.yaml"), "paths:\n  - {path: ws, slug: ws}\n"
                + "server: {allowed_origins: [\"https://app.example\"]}\n");
        Path badJwks = Files.writeString(dir.resolve("badjwks.yaml"), "paths:\n  - {path: ws, slug: ws}\n"
                + "server: {auth: {jwt: {issuer: i, audience: a, jwks_file: missing.json}}}\n");

        assertThat(run("--policy", none.toString(), "--http", "0")).isEqualTo(MeroMcpMain.EXIT_USAGE);
        assertThat(run("--policy", none.toString(), "--http", "1")).isEqualTo(MeroMcpMain.EXIT_POLICY);
        assertThat(run("--policy", noKeys.toString(), "--http=1")).isEqualTo(MeroMcpMain.EXIT_POLICY);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--http needs the policy's server.auth section");
        assertThat(run("--policy", badJwks.toString(), "--http", "127.0.0.1:1")).isEqualTo(MeroMcpMain.EXIT_POLICY);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("The JWKS file").contains("missing.json");
    }
}
