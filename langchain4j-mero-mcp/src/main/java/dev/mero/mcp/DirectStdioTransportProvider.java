package dev.mero.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * The stdio transport of the server: one JSON-RPC message per line in each direction, and no scheduler between
 * the pipe and the handler.
 *
 * <p>The SDK's stdio transport reads on one thread, runs each tool call on another and writes the answer on a
 * third; for a client that waits for each answer, the two wake-ups per call cost more than the call. Here the
 * thread that reads a request serves it itself (the server runs tool calls on the calling thread) and writes
 * the answer with one write and one flush, then reads on. Concurrency is kept: a {@link Watchdog} hands the
 * reading to another thread of the pool when the reading thread has been busy with one request for more than
 * {@value #INLINE_NANOS} ns, so a call that blocks or works long (a slow file, an approval question, a big
 * search) holds only its own thread and delays the requests behind it by about a millisecond, and such calls run
 * in parallel. Short calls run one after another on the reading thread, which on a small machine costs less
 * than spreading them over threads. Responses and notifications from the client are handled by the reading
 * thread directly.
 *
 * <p>Bounds: an input line may hold at most {@value #MAX_LINE_BYTES} bytes (a longer one ends the session, as
 * in the SDK); at most {@value #MAX_CALLS_IN_FLIGHT} requests run at once, and up to {@value #MAX_CALLS_WAITING}
 * more wait for a free slot; a request beyond those is answered at once with error {@value #BUSY_CODE}. The
 * reader never waits for a slot: the client's answers to the server's own requests (approval questions) may be
 * queued behind waiting requests, and the calls that hold the slots may be waiting for exactly those answers.
 *
 * <p>Protocol: a line that is not JSON is answered with a parse error, one that is not a valid JSON-RPC message
 * with an invalid request error ({@link JsonRpcInput}); a {@code ping} is answered at once, also before
 * {@code initialize} (MCP allows a ping at any time; the SDK's session would hold it until the client's
 * {@code notifications/initialized}).
 */
final class DirectStdioTransportProvider implements McpServerTransportProvider {

    /** The longest input line accepted, in bytes. */
    static final int MAX_LINE_BYTES = 16 * 1024 * 1024;

    /** How many requests may run at once. */
    static final int MAX_CALLS_IN_FLIGHT = 256;

    /** How many requests may wait for a free slot; more are refused with {@value #BUSY_CODE}. */
    static final int MAX_CALLS_WAITING = 256;

    /** The JSON-RPC error code (implementation-defined server error) of a request refused for lack of room. */
    static final int BUSY_CODE = -32000;

    /** The message of that error. */
    static final String BUSY_MESSAGE = "Server busy: " + MAX_CALLS_IN_FLIGHT + " requests are running and "
            + MAX_CALLS_WAITING + " waiting; send this request again once some have been answered";

    /** How long the reading thread serves a request itself before another thread takes over the reading. */
    static final long INLINE_NANOS = 1_000_000;

    /** The size of the buffer an answer is serialised into. */
    private static final int LINE_BUFFER_BYTES = 16 * 1024;

    /** The largest buffer kept for the next answer; a bigger one (a big file read) is let go. */
    private static final int LINE_BUFFER_BYTES_KEPT = 256 * 1024;

    /** How long the end of input waits for running requests to answer before the session closes. */
    private static final long DRAIN_MILLIS = 2000;

    private static final Logger LOG = LoggerFactory.getLogger(DirectStdioTransportProvider.class);

    private final McpJsonMapper mapper;
    private final LineReader input;
    private final OutputStream output;
    /** Guards {@link #running} and {@link #waiting}; notified when a request ends. */
    private final Object slots = new Object();
    private int running;
    private final Deque<McpSchema.JSONRPCRequest> waiting = new ArrayDeque<>();
    private final AtomicBoolean closing = new AtomicBoolean();
    private final ExecutorService threads;
    private final AtomicReference<InlineCall> inlineCall = new AtomicReference<>();
    private final Watchdog watchdog = new Watchdog(this::checkInlineCall, INLINE_NANOS);
    private final SessionTransport sessionTransport = new SessionTransport();
    private volatile McpServerSession session;

    DirectStdioTransportProvider(McpJsonMapper mapper, InputStream input, OutputStream output) {
        this.mapper = mapper;
        this.input = new LineReader(input, MAX_LINE_BYTES);
        this.output = output;
        AtomicInteger count = new AtomicInteger();
        this.threads = new ThreadPoolExecutor(0, MAX_CALLS_IN_FLIGHT + 1, 30, TimeUnit.SECONDS,
                new SynchronousQueue<>(), task -> {
                    Thread thread = new Thread(task, "mero-mcp-stdio-" + count.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
    }

    @Override
    public void setSessionFactory(McpServerSession.Factory sessionFactory) {
        this.session = sessionFactory.create(sessionTransport);
        watchdog.start();
        threads.execute(this::read);
    }

    @Override
    public Mono<Void> notifyClients(String method, Object params) {
        return Mono.defer(() -> session == null ? Mono.error(new IllegalStateException("No session to notify"))
                : session.sendNotification(method, params));
    }

    @Override
    public Mono<Void> notifyClient(String sessionId, String method, Object params) {
        return Mono.defer(() -> session == null || !session.getId().equals(sessionId)
                ? Mono.error(new IllegalStateException("No session " + sessionId))
                : session.sendNotification(method, params));
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.defer(() -> session == null ? Mono.empty() : session.closeGracefully());
    }

    /**
     * Reads and handles messages until the input ends (then closes the session) or until another thread has
     * taken over the reading while this one served a request (then returns).
     */
    private void read() {
        try {
            while (!closing.get()) {
                byte[] line = input.next();
                if (line == null) {
                    break;
                }
                if (line.length == 0) {
                    continue;
                }
                JsonRpcInput in = JsonRpcInput.read(mapper, line);
                McpSchema.JSONRPCMessage message = in.message();
                if (in.isError()) {
                    LOG.warn("Answered an input line that is not a valid JSON-RPC message with an error");
                    answer(in.errorReply());
                } else if (message instanceof McpSchema.JSONRPCRequest request) {
                    if (McpSchema.METHOD_PING.equals(request.method())) {
                        answer(McpSchema.JSONRPCResponse.result(request.id(), Map.of()));
                    } else if (admit(request)) {
                        InlineCall call = new InlineCall(System.nanoTime());
                        inlineCall.set(call);
                        watchdog.wake();
                        serve(request);
                        if (!inlineCall.compareAndSet(call, null)) {
                            return; // the watchdog handed the reading to another thread meanwhile
                        }
                    }
                } else if (message != null) {
                    dispatch(message); // responses and notifications never wait for a call slot
                } else {
                    LOG.warn("Skipped a response whose id is not a string or an integer");
                }
            }
        } catch (LineReader.LineTooLongException e) {
            LOG.error("Input line longer than {} bytes: closing the session", MAX_LINE_BYTES);
        } catch (IOException e) {
            if (!closing.get()) {
                LOG.error("Reading the protocol input failed: closing the session", e);
            }
        }
        endOfInput();
    }

    /**
     * Takes a call slot for a request: true if it may run now; otherwise it waits for a slot (it is served by
     * the thread that frees one) or, when too many wait, it is refused at once.
     */
    private boolean admit(McpSchema.JSONRPCRequest request) {
        synchronized (slots) {
            if (running < MAX_CALLS_IN_FLIGHT) {
                running++;
                return true;
            }
            if (waiting.size() < MAX_CALLS_WAITING) {
                waiting.add(request);
                return false;
            }
        }
        LOG.warn("Refused request {}: {} requests running, {} waiting", request.id(), MAX_CALLS_IN_FLIGHT,
                MAX_CALLS_WAITING);
        answer(McpSchema.JSONRPCResponse.error(request.id(),
                new McpSchema.JSONRPCResponse.JSONRPCError(BUSY_CODE, BUSY_MESSAGE, null)));
        return false;
    }

    /** Writes an answer the transport gives itself; a failed write has already closed the session. */
    private void answer(Object reply) {
        try {
            sessionTransport.writeLine(reply);
        } catch (UncheckedIOException e) {
            LOG.debug("Could not write an answer: {}", e.getMessage());
        }
    }

    /**
     * Serves a request that holds a call slot, then the requests that wait for a slot, one after another, and
     * gives the slot back once none waits.
     */
    private void serve(McpSchema.JSONRPCRequest request) {
        McpSchema.JSONRPCRequest next = request;
        while (next != null) {
            try {
                dispatch(next);
            } finally {
                synchronized (slots) {
                    next = closing.get() ? null : waiting.poll();
                    if (next == null) {
                        running--;
                        slots.notifyAll();
                    }
                }
            }
        }
    }

    /**
     * Called by the watchdog: if the reading thread has been serving one request for longer than
     * {@value #INLINE_NANOS} ns, another thread takes over the reading.
     *
     * @return how long the watchdog may sleep before it looks again (until the request being served would be
     *         too long), or {@link Watchdog#NOTHING_TO_WATCH}
     */
    private long checkInlineCall() {
        InlineCall call = inlineCall.get();
        if (call == null) {
            return Watchdog.NOTHING_TO_WATCH;
        }
        long left = call.startNanos + INLINE_NANOS - System.nanoTime();
        if (left > 0) {
            return left;
        }
        if (!inlineCall.compareAndSet(call, null)) {
            return 0; // that request ended meanwhile: look at the next one at once
        }
        try {
            if (!handOffReading()) {
                LOG.debug("Not handing the reading on: shutting down");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Watchdog.NOTHING_TO_WATCH;
    }

    /**
     * Starts the next reader on another thread of the pool; false once the pool is shut down. A full pool
     * (threads that gave their call slot back but have not returned yet) is waited out.
     */
    private boolean handOffReading() throws InterruptedException {
        while (true) {
            try {
                threads.execute(this::read);
                return true;
            } catch (RejectedExecutionException e) {
                if (threads.isShutdown()) {
                    return false;
                }
                Thread.sleep(1);
            }
        }
    }

    private void dispatch(McpSchema.JSONRPCMessage message) {
        session.handle(message).subscribe(null,
                error -> LOG.error("Handling a {} failed", message.getClass().getSimpleName(), error));
    }

    /** Lets running requests answer (for a while), then closes the session and the pool. */
    private void endOfInput() {
        try {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_MILLIS);
            synchronized (slots) {
                long left;
                while (running > 0 && (left = deadline - System.nanoTime()) > 0) {
                    TimeUnit.NANOSECONDS.timedWait(slots, left);
                }
                if (running > 0) {
                    LOG.warn("Input ended with requests still running; closing without their answers");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closing.set(true);
        watchdog.stop();
        threads.shutdown();
        session.close();
    }

    /** A request the reading thread serves itself, since {@code startNanos}. */
    private record InlineCall(long startNanos) {
    }

    /** The session's side: serialises each message and writes it as one line. */
    private final class SessionTransport implements McpServerTransport {

        /**
         * The line being written, kept from one message to the next (under the output's lock): a message is
         * serialised into it and written from it, with no array of its own.
         */
        private ByteArrayOutputStream line = new ByteArrayOutputStream(LINE_BUFFER_BYTES);

        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
            return Mono.fromRunnable(() -> writeLine(message));
        }

        /**
         * Writes a message as one compact JSON text (a newline inside is escaped) and a newline, with one write
         * and one flush.
         */
        void writeLine(Object message) {
            synchronized (output) {
                try {
                    line.reset();
                    ForwardingJsonMapper.writeValue(mapper, line, message);
                    line.write('\n');
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                try {
                    line.writeTo(output);
                    output.flush();
                } catch (IOException e) {
                    if (closing.compareAndSet(false, true)) {
                        LOG.error("Writing to the protocol output failed: closing the session", e);
                        session.close();
                    }
                    throw new UncheckedIOException(e);
                } finally {
                    if (line.size() > LINE_BUFFER_BYTES_KEPT) {
                        line = new ByteArrayOutputStream(LINE_BUFFER_BYTES); // a big answer's buffer is not kept
                    }
                }
            }
        }

        @Override
        public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
            return mapper.convertValue(data, typeRef);
        }

        @Override
        public Mono<Void> closeGracefully() {
            return Mono.fromRunnable(() -> closing.set(true));
        }

        @Override
        public void close() {
            closing.set(true);
        }
    }
}
