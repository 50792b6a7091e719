package dev.mero.postgres;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/**
 * A TCP relay in front of the test server that can stall: once {@link #stall()} is called, it keeps every
 * connection open but forwards nothing more, as a frozen backend or a lost network path would.
 */
final class StallingProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final int target;
    private final CountDownLatch closed = new CountDownLatch(1);
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean stalled;

    StallingProxy(int target) throws IOException {
        this.target = target;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(this::accept, "stalling-proxy");
        accept.setDaemon(true);
        accept.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    void stall() {
        stalled = true;
    }

    @Override
    public void close() throws IOException {
        closed.countDown();
        listener.close();
        for (Socket socket : sockets) {
            socket.close();
        }
    }

    private void accept() {
        try {
            while (true) {
                Socket client = listener.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), target);
                sockets.add(client);
                sockets.add(server);
                pump(client.getInputStream(), server.getOutputStream());
                pump(server.getInputStream(), client.getOutputStream());
            }
        } catch (IOException closedListener) {
            // the proxy was closed
        }
    }

    private void pump(InputStream in, OutputStream out) {
        Thread pump = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    if (stalled) {
                        closed.await(); // hold the bytes until the test ends
                        return;
                    }
                    out.write(buffer, 0, read);
                    out.flush();
                }
            } catch (IOException | InterruptedException ended) {
                // a side closed, or the proxy did
            }
        }, "stalling-proxy-pump");
        pump.setDaemon(true);
        pump.start();
    }
}
