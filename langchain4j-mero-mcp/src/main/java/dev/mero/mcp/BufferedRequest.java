package dev.mero.mcp;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A request whose body has been read, boundedly, before the servlet sees it (so that a chunked body without a
 * declared length is bounded too, and the gate can check the JSON-RPC message); the servlet reads the same bytes.
 */
final class BufferedRequest extends HttpServletRequestWrapper {

    private final byte[] body;

    private BufferedRequest(HttpServletRequest request, byte[] body) {
        super(request);
        this.body = body;
    }

    /**
     * Reads the body of {@code request}, at most {@code maxBytes}.
     *
     * @return the request with its body read, or {@code null} if the body is longer than {@code maxBytes}
     */
    static BufferedRequest read(HttpServletRequest request, int maxBytes) throws IOException {
        // not closed here: the container owns the stream, and a refused body's rest is still read off it
        InputStream in = request.getInputStream();
        byte[] body = in.readNBytes(maxBytes + 1);
        return body.length > maxBytes ? null : new BufferedRequest(request, body);
    }

    byte[] body() {
        return body;
    }

    @Override
    public int getContentLength() {
        return body.length;
    }

    @Override
    public long getContentLengthLong() {
        return body.length;
    }

    @Override
    public ServletInputStream getInputStream() {
        ByteArrayInputStream in = new ByteArrayInputStream(body);
        return new ServletInputStream() {
            @Override
            public boolean isFinished() {
                return in.available() == 0;
            }

            @Override
            public boolean isReady() {
                return true;
            }

            @Override
            public void setReadListener(ReadListener listener) {
                throw new IllegalStateException("the body has been read already");
            }

            @Override
            public int read() {
                return in.read();
            }

            @Override
            public int read(byte[] buffer, int offset, int length) {
                return in.read(buffer, offset, length);
            }
        };
    }

    @Override
    public BufferedReader getReader() {
        return new BufferedReader(new InputStreamReader(new ByteArrayInputStream(body), StandardCharsets.UTF_8));
    }
}
