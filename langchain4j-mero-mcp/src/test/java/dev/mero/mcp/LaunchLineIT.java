package dev.mero.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The jar started with the JVM options of the launch line docs/mcp.md documents: a {@code SIGQUIT} thread dump
 * and the JVM's log warnings (here: a class-data archive it cannot use) go to stderr, and stdout stays a clean
 * JSON-RPC stream; a ping before {@code initialize} and a line that is not JSON are answered there.
 */
class LaunchLineIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern LAUNCH_LINE = Pattern.compile("java (.*?) -jar ");

    @TempDir
    Path tempDir;

    @Test
    void aThreadDumpAndJvmWarningsLeaveStdoutACleanProtocolStream() throws Exception {
        Path policy = TestFiles.create(tempDir).policy("policy.yaml", "name: launch\npaths: [{path: ws, slug: ws, "
                + "allow: [READ]}]\n");
        Path staleArchive = staleArchive();
        List<String> command = new ArrayList<>(List.of(ServerProcess.java()));
        for (String option : documentedJvmOptions()) {
            command.add(option.startsWith("-XX:SharedArchiveFile=") ? "-XX:SharedArchiveFile=" + staleArchive : option);
        }
        command.addAll(List.of("-jar", ServerProcess.jar().toString(), "--policy", policy.toString()));
        Process process = new ProcessBuilder(command).start();
        StringBuffer stderr = new StringBuffer();
        CompletableFuture<Void> errors = CompletableFuture.runAsync(() -> copy(process.getErrorStream(), stderr));
        List<String> lines = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8)); OutputStream in = process.getOutputStream()) {
            send(in, "{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"method\":\"ping\"}");
            JsonNode pong = next(out, lines); // before initialize: the JVM is up and the server reads
            assertThat(pong.get("id").asText()).isEqualTo("p");
            assertThat(pong.get("result").size()).isZero();

            Process kill = new ProcessBuilder("kill", "-QUIT", Long.toString(process.pid())).inheritIO().start();
            assertThat(kill.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(kill.exitValue()).isZero();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!stderr.toString().contains("Full thread dump") && System.nanoTime() < deadline) {
                Thread.sleep(20); // polling for the dump on stderr, bounded
            }
            assertThat(stderr.toString()).as("the thread dump went to stderr").contains("Full thread dump");

            send(in, "not json");
            assertThat(next(out, lines).at("/error/code").asInt()).isEqualTo(-32700);
            send(in, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                    + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}");
            assertThat(next(out, lines).at("/result/serverInfo/name").asText()).isEqualTo(MeroMcpServer.NAME);
            send(in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            send(in, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"read_file\","
                    + "\"arguments\":{\"path\":\"/ws/a.txt\"}}}");
            assertThat(next(out, lines).at("/result/content/0/text").asText()).contains("alpha");
            in.close();
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                lines.add(line);
            }
        }
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        errors.get(60, TimeUnit.SECONDS);

        assertThat(process.exitValue()).isZero();
        assertThat(lines).hasSize(4).allSatisfy(line ->
                assertThat(JSON.readTree(line).get("jsonrpc").asText()).as(line).isEqualTo("2.0"));
        assertThat(stderr.toString()).as("the JVM's warning about the archive went to stderr").contains("[warning]");
    }

    /** A class-data archive made for another copy of the jar: the server's JVM warns and runs without it. */
    private Path staleArchive() throws Exception {
        Path other = Files.copy(ServerProcess.jar(), tempDir.resolve("other.jar"));
        Path archive = tempDir.resolve("stale.jsa");
        Process dump = new ProcessBuilder(ServerProcess.java(), "-XX:ArchiveClassesAtExit=" + archive, "-jar",
                other.toString(), "--help").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        assertThat(dump.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(archive).isRegularFile();
        return archive;
    }

    /** The JVM options of the launch line in docs/mcp.md (its first {@code java ... -jar}, lines joined). */
    private static List<String> documentedJvmOptions() throws IOException {
        String doc = Files.readString(Path.of("..", "docs", "mcp.md")).replace("\\\n", " ");
        Matcher line = LAUNCH_LINE.matcher(doc);
        assertThat(line.find()).as("docs/mcp.md has a java ... -jar launch line").isTrue();
        List<String> options = Arrays.asList(line.group(1).trim().split("\\s+"));
        assertThat(options).contains("-XX:+DisplayVMOutputToStderr");
        return options;
    }

    private static void send(OutputStream in, String line) throws IOException {
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    private static JsonNode next(BufferedReader out, List<String> lines) throws IOException {
        String line = out.readLine();
        assertThat(line).as("the server closed stdout").isNotNull();
        lines.add(line);
        return JSON.readTree(line);
    }

    private static void copy(InputStream stream, StringBuffer into) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                into.append(line).append('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
