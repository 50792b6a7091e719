package dev.mero.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Closing the HTTP server ends the thread of the SDK's session sweeps, which the SDK's own close leaves running
 * (it is not a daemon: a JVM that closed its server would never exit).
 */
class SdkSweeperTest {

    @Test
    void closingTheServerEndsTheSweepThreadTheSdkLeavesRunning(@TempDir Path dir) throws Exception {
        HttpTestServer http = new HttpTestServer(dir);
        SdkSweeper sweeper = http.server.sweeper();
        try {
            assertThat(sweeper.caught()).as("the transport's sweep scheduler was caught while it was built").isTrue();
            assertThat(sweeper.awaitTermination(0, TimeUnit.MILLISECONDS)).as("it runs while the server serves")
                    .isFalse();
        } finally {
            http.close();
        }
        assertThat(sweeper.awaitTermination(60, TimeUnit.SECONDS)).as("ended by the server's close").isTrue();
    }
}
