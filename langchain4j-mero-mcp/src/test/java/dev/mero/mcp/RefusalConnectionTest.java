package dev.mero.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A refusal leaves a kept-alive HTTP/1.1 connection usable, or says that it closes it. Clients (the JDK's
 * {@code HttpClient}, the SDK's transport) send the next request on a connection the last response did not close;
 * a server that answers and then closes silently makes that request fail with no response at all. These tests
 * speak HTTP on a raw socket, header block and body in separate writes as those clients send them.
 */
class RefusalConnectionTest {

    @TempDir
    static Path dir;
    static HttpTestServer server;

    @BeforeAll
    static void start() throws Exception {
        server = new HttpTestServer(dir);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void everyRefusalBeforeTheBodyIsReadKeepsTheConnectionForTheNextRequest() throws Exception {
        Map<Map<String, String>, Integer> refusals = new LinkedHashMap<>();
        refusals.put(Map.of(), 401);
        refusals.put(Map.of("Authorization", "Bearer not-a-key"), 401);
        refusals.put(Map.of("Authorization", "Bearer " + HttpTestServer.ALICE_KEY, "Origin", "https://evil.test"), 403);
        refusals.put(Map.of("Authorization", "Bearer " + HttpTestServer.ALICE_KEY,
                HttpGate.SESSION_HEADER, "no-such-session"), 404);
        byte[] body = HttpTestServer.INITIALIZE.getBytes(StandardCharsets.UTF_8);
        try (Socket socket = connect()) {
            for (int round = 0; round < 25; round++) {
                for (Map.Entry<Map<String, String>, Integer> refusal : refusals.entrySet()) {
                    Response response = exchange(socket, refusal.getKey(), body.length, body);

                    assertThat(response.status).as("round %d, %s", round, refusal.getKey())
                            .isEqualTo(refusal.getValue());
                    assertThat(response.header("connection")).as("round %d", round).isNull();
                }
            }
            // and the connection still serves a request that passes
            Response ok = exchange(socket, Map.of("Authorization", "Bearer " + HttpTestServer.ALICE_KEY),
                    body.length, body);
            assertThat(ok.status).isEqualTo(200);
            assertThat(ok.body).contains("\"protocolVersion\"");
        }
    }

    @Test
    void aRefusedBodyLargerThanTheDrainIsNotReadAndTheRefusalSaysTheConnectionCloses() throws Exception {
        long declared = HttpGate.UNREAD_BODY_DRAIN + 1;
        try (Socket socket = connect()) {
            Response response = exchange(socket, Map.of("Authorization", "Bearer not-a-key"), declared, new byte[0]);

            assertThat(response.status).isEqualTo(401);
            assertThat(response.header("connection")).isEqualToIgnoringCase("close");
            assertThat(socket.getInputStream().read()).as("the server closed the connection").isEqualTo(-1);
        }
    }

    @Test
    void aChunkedBodyIsDrainedBeforeTheRefusalToo() throws Exception {
        try (Socket socket = connect()) {
            for (int round = 0; round < 5; round++) {
                OutputStream out = socket.getOutputStream();
                out.write(head(Map.of("Authorization", "Bearer not-a-key", "Transfer-Encoding", "chunked"), -1));
                out.flush();
                byte[] body = HttpTestServer.INITIALIZE.getBytes(StandardCharsets.UTF_8);
                out.write((Integer.toHexString(body.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(body);
                out.write("\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();

                Response response = read(socket.getInputStream());
                assertThat(response.status).isEqualTo(401);
                assertThat(response.header("connection")).isNull();
            }
        }
    }

    private static Socket connect() throws IOException {
        Socket socket = new Socket("127.0.0.1", server.server.port());
        socket.setSoTimeout(30_000);
        socket.setTcpNoDelay(true); // the header block and the body go out as two segments, as clients send them
        return socket;
    }

    /** Sends the header block, then the body in a second write, and reads one response. */
    private static Response exchange(Socket socket, Map<String, String> headers, long contentLength, byte[] body)
            throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(head(headers, contentLength));
        out.flush();
        out.write(body);
        out.flush();
        return read(socket.getInputStream());
    }

    private static byte[] head(Map<String, String> headers, long contentLength) {
        StringBuilder head = new StringBuilder("POST ").append(MeroMcpHttpServer.ENDPOINT).append(" HTTP/1.1\r\n")
                .append("Host: 127.0.0.1\r\nContent-Type: application/json\r\n")
                .append("Accept: application/json, text/event-stream\r\n");
        if (contentLength >= 0) {
            head.append("Content-Length: ").append(contentLength).append("\r\n");
        }
        headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        return head.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** Reads one response, its body framed by Content-Length or in chunks. */
    private static Response read(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        Response response = new Response();
        String status = readLine(in, line);
        response.status = Integer.parseInt(status.split(" ")[1]);
        for (String header = readLine(in, line); !header.isEmpty(); header = readLine(in, line)) {
            int colon = header.indexOf(':');
            response.headers.put(header.substring(0, colon).trim().toLowerCase(Locale.ROOT),
                    header.substring(colon + 1).trim());
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if ("chunked".equalsIgnoreCase(response.headers.get("transfer-encoding"))) {
            for (int size = Integer.parseInt(readLine(in, line), 16); size > 0;
                    size = Integer.parseInt(readLine(in, line), 16)) {
                body.writeBytes(readExactly(in, size));
                readLine(in, line);
            }
            readLine(in, line);
        } else {
            body.writeBytes(readExactly(in, Integer.parseInt(response.headers.get("content-length"))));
        }
        response.body = body.toString(StandardCharsets.UTF_8);
        return response;
    }

    private static byte[] readExactly(InputStream in, int length) throws IOException {
        byte[] bytes = in.readNBytes(length);
        if (bytes.length < length) {
            throw new EOFException("the body ended after " + bytes.length + " of " + length + " bytes");
        }
        return bytes;
    }

    private static String readLine(InputStream in, ByteArrayOutputStream line) throws IOException {
        line.reset();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new EOFException("the server closed the connection; read so far: " + line);
            }
            if (c != '\r') {
                line.write(c);
            }
        }
        return line.toString(StandardCharsets.US_ASCII);
    }

    private static final class Response {
        int status;
        final Map<String, String> headers = new LinkedHashMap<>();
        String body;

        String header(String name) {
            return headers.get(name);
        }
    }
}
