package dev.mero.core.approval;

import dev.mero.core.ApprovalTimeoutException;
import dev.mero.core.message.Messages;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Console;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.io.Writer;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;

/**
 * Asks a human on a terminal: shows the request and waits for {@code y} or {@code yes}.
 *
 * <pre>{@code
 * ApprovalBackend console = ConsoleApproval.create();                  // the JVM's terminal
 * ApprovalBackend scripted = ConsoleApproval.builder()
 *         .input(reader).output(writer).timeout(Duration.ofSeconds(30)).build();
 * }</pre>
 *
 * <p>What the human sees (every value escaped, so control characters, ANSI sequences or bidirectional
 * overrides in a path or a diff are shown as {@code \x1b}, {@code \u202e}, ... instead of acting on the
 * terminal):
 * <pre>
 * Approval needed for context 'worker_1':
 *   action:      'WRITE: /ws/a.txt'
 *   permissions: ['WRITE']
 *   target:      '/srv/workspace/a.txt'
 *   details:
 *     | -old line
 *     | +new line
 * Approve? [y/N] (no answer within 2m denies):
 * </pre>
 *
 * <p>Answers: {@code y} or {@code yes} (any case, surrounding blanks ignored) approves; anything else,
 * including an empty line, denies; no complete answer within the {@linkplain Builder#timeout(Duration)
 * timeout} is an {@link ApprovalTimeoutException} (the action is refused as timed out, not as denied). When
 * there is no terminal ({@link System#console()} is {@code null} and no input was given), or the input has
 * ended, the backend {@link ApprovalDecision#ABSTAIN abstains}, so that a chain
 * can ask someone else (and a lone gate refuses). By default any type-ahead, text typed before the prompt
 * appeared, is discarded, so a stray {@code y} meant for an earlier question cannot approve a new one.
 *
 * <p>Concurrent requests are asked one at a time; time spent waiting for an earlier prompt counts against
 * the timeout. The backend waits by polling the input, so it reacts to an interrupt (for example from a
 * {@link ChainedApproval} timeout) within a few milliseconds and leaves no thread behind. It reads what is
 * ready in chunks, never a character at a time: a terminal reader ({@link Console#reader()}) takes a whole
 * line from the terminal at once, so after the first character its {@code ready()} no longer reports the
 * rest of the line. Text read past the end of an answer is kept for the next question. Thread-safe.
 */
public final class ConsoleApproval implements ApprovalBackend {

    /** Default time a human has to answer. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(2);

    /** Longest answer read; a longer line is not a valid answer and denies. */
    private static final int MAX_ANSWER_LENGTH = 64;
    /** Longest details shown, in lines; the rest is summarised. */
    private static final int MAX_DETAIL_LINES = 200;
    private static final long POLL_MILLIS = 10;
    /** Largest read from the input at once; bounds what is held beyond the current answer. */
    private static final int CHUNK = 256;
    private static final Logger LOGGER = LoggerFactory.getLogger(ConsoleApproval.class);

    private final Reader input;
    private final PrintWriter output;
    private final Duration timeout;
    private final boolean discardTypeAhead;
    private final ReentrantLock prompting = new ReentrantLock(true);
    private volatile boolean inputEnded;
    /** Text read past the end of the last answer, waiting for the next question; guarded by {@link #prompting}. */
    private final StringBuilder carried = new StringBuilder();

    private ConsoleApproval(Builder builder) {
        this.input = builder.input;
        this.output = builder.output == null ? null
                : builder.output instanceof PrintWriter printWriter ? printWriter : new PrintWriter(builder.output);
        this.timeout = builder.timeout;
        this.discardTypeAhead = builder.discardTypeAhead;
    }

    /**
     * A backend that asks on the JVM's terminal ({@link System#console()}) with the default timeout, and
     * abstains when there is none.
     *
     * @return the backend
     */
    public static ConsoleApproval create() {
        return builder().build();
    }

    /**
     * Starts a builder.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Shows the request and waits for the answer.
     *
     * @param request what is to be approved
     * @return {@link ApprovalDecision#APPROVED} for {@code y}/{@code yes}; {@link ApprovalDecision#DENIED}
     *         for any other answer; {@link ApprovalDecision#ABSTAIN} without a terminal or once the input has
     *         ended
     * @throws ApprovalTimeoutException if no complete answer came within the timeout
     * @throws InterruptedException if the thread was interrupted while waiting
     * @throws IOException          if the input cannot be read
     */
    @Override
    public ApprovalDecision decide(ApprovalRequest request) throws InterruptedException, IOException {
        Objects.requireNonNull(request, "request");
        Reader in = input;
        PrintWriter out = output;
        if (in == null) {
            Console console = System.console();
            if (console == null) {
                LOGGER.warn("ConsoleApproval abstains on {} for context {}: there is no terminal (standard input "
                        + "or output is not a terminal), so nobody can answer here; the next backend in the "
                        + "chain decides, or a lone gate refuses", Messages.quote(request.action()),
                        Messages.quote(request.contextName()));
                return ApprovalDecision.ABSTAIN;
            }
            in = console.reader();
            out = out != null ? out : console.writer();
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        if (!prompting.tryLock(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
            // the human did not get to this question in time
            throw ApprovalTimeoutException.noDecisionWithin(request.action(), request.contextName(), timeout);
        }
        try {
            return ask(request, in, out, deadline);
        } finally {
            prompting.unlock();
        }
    }

    @Override
    public String toString() {
        return "ConsoleApproval{timeout=" + timeout + "}";
    }

    /**
     * Renders the prompt exactly as it is shown, without the trailing question.
     *
     * @param request the request
     * @return the prompt text
     */
    static String describe(ApprovalRequest request) {
        StringBuilder text = new StringBuilder()
                .append("Approval needed for context ").append(Messages.quote(request.contextName())).append(":\n")
                .append("  action:      ").append(Messages.quote(request.action())).append('\n')
                .append("  permissions: ").append(Messages.permissions(request.permissions())).append('\n');
        request.target().ifPresent(target ->
                text.append("  target:      ").append(Messages.quote(target.toString())).append('\n'));
        if (!request.argv().isEmpty()) {
            text.append("  command:     ")
                    .append(request.argv().stream().map(Messages::quote).collect(Collectors.joining(" ")))
                    .append('\n');
        }
        request.details().ifPresent(details -> {
            text.append("  details:\n");
            List<String> lines = details.lines().toList();
            lines.stream().limit(MAX_DETAIL_LINES)
                    .forEach(line -> text.append("    | ").append(unquoted(line)).append('\n'));
            if (lines.size() > MAX_DETAIL_LINES) {
                text.append("    ... (").append(lines.size() - MAX_DETAIL_LINES).append(" more lines)\n");
            }
        });
        return text.toString();
    }

    private ApprovalDecision ask(ApprovalRequest request, Reader in, PrintWriter out, long deadline)
            throws InterruptedException, IOException {
        if (inputEnded || discardTypeAhead && !discardTypeAhead(in, deadline)) {
            return abstainAtEnd(request);
        }
        out.print(describe(request));
        out.print("Approve? [y/N] (no answer within " + readable(timeout) + " denies): ");
        out.flush();
        Answer answer = new Answer();
        char[] chunk = new char[CHUNK];
        while (!answer.complete) {
            // Checked on every chunk too, so an endless line can neither hold the question open nor make the
            // wait deaf to interrupts.
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting for an approval answer");
            }
            if (System.nanoTime() - deadline >= 0) {
                out.println();
                out.println("No answer within " + readable(timeout) + ": timed out, not approved.");
                out.flush();
                throw ApprovalTimeoutException.noDecisionWithin(request.action(), request.contextName(), timeout);
            }
            if (!carried.isEmpty()) {
                answer.take(carried);
                continue;
            }
            if (!in.ready()) {
                Thread.sleep(POLL_MILLIS);
                continue;
            }
            int read = in.read(chunk, 0, chunk.length);
            if (read == -1) {
                inputEnded = true;
                if (answer.empty) {
                    out.println();
                    out.println("Input ended: no decision.");
                    out.flush();
                    return abstainAtEnd(request);
                }
                break;
            }
            carried.append(chunk, 0, read);
        }
        boolean approved = answer.approves();
        out.println(approved ? "Approved." : "Denied.");
        out.flush();
        return approved ? ApprovalDecision.APPROVED : ApprovalDecision.DENIED;
    }

    private static ApprovalDecision abstainAtEnd(ApprovalRequest request) {
        LOGGER.warn("ConsoleApproval abstains on {} for context {}: its input has ended, so nobody can answer "
                        + "here; the next backend in the chain decides, or a lone gate refuses",
                Messages.quote(request.action()), Messages.quote(request.contextName()));
        return ApprovalDecision.ABSTAIN;
    }

    /** Drops whatever was typed before the prompt; returns {@code false} if the input has ended. */
    private boolean discardTypeAhead(Reader in, long deadline) throws IOException {
        carried.setLength(0);
        char[] chunk = new char[CHUNK];
        while (in.ready() && System.nanoTime() - deadline < 0) {
            if (in.read(chunk, 0, chunk.length) == -1) {
                inputEnded = true;
                return false;
            }
        }
        return true;
    }

    /** One answer line as it arrives: its first characters, and whether it is empty or too long to count. */
    private static final class Answer {
        private final StringBuilder text = new StringBuilder();
        private boolean empty = true;
        private boolean overlong;
        private boolean complete;

        /** Moves characters from {@code source} up to and including the first line end; the rest stays there. */
        void take(StringBuilder source) {
            int end = source.indexOf("\n");
            int taken = end < 0 ? source.length() : end;
            int room = MAX_ANSWER_LENGTH - text.length();
            overlong |= taken > room;
            text.append(source, 0, Math.min(taken, room));
            empty &= taken == 0;
            complete = end >= 0;
            source.delete(0, end < 0 ? taken : end + 1);
        }

        boolean approves() {
            return !overlong && isYes(text.toString());
        }
    }

    private static boolean isYes(String answer) {
        String normalized = answer.strip().toLowerCase(Locale.ROOT);
        return normalized.equals("y") || normalized.equals("yes");
    }

    /** The escaped form of a detail line without the surrounding quotes, which would clutter a diff. */
    private static String unquoted(String line) {
        String quoted = Messages.quote(line);
        return quoted.substring(1, quoted.length() - 1);
    }

    private static String readable(Duration duration) {
        return duration.toString().substring(2).toLowerCase(Locale.ROOT);
    }

    /** Builds a {@link ConsoleApproval}. */
    public static final class Builder {

        private Reader input;
        private Writer output;
        private Duration timeout = DEFAULT_TIMEOUT;
        private boolean discardTypeAhead = true;

        private Builder() {
        }

        /**
         * Reads answers from this input instead of the terminal; an {@link #output(Writer)} is then required.
         *
         * @param input the input; its {@link Reader#ready()} must report typed text, as terminal and pipe
         *              readers do
         * @return this builder
         */
        public Builder input(Reader input) {
            this.input = Objects.requireNonNull(input, "input");
            return this;
        }

        /**
         * Shows prompts on this output instead of the terminal.
         *
         * @param output the output
         * @return this builder
         */
        public Builder output(Writer output) {
            this.output = Objects.requireNonNull(output, "output");
            return this;
        }

        /**
         * Sets how long the human has to answer before the request is denied (default
         * {@link ConsoleApproval#DEFAULT_TIMEOUT}).
         *
         * @param timeout a positive duration
         * @return this builder
         */
        public Builder timeout(Duration timeout) {
            this.timeout = Timeouts.requirePositive(timeout, "ConsoleApproval timeout");
            return this;
        }

        /**
         * Sets whether text typed before a prompt appeared is discarded (default {@code true}). Turn it off
         * only for scripted input, where every answer is there in advance.
         *
         * @param discardTypeAhead whether to discard type-ahead
         * @return this builder
         */
        public Builder discardTypeAhead(boolean discardTypeAhead) {
            this.discardTypeAhead = discardTypeAhead;
            return this;
        }

        /**
         * Builds the backend.
         *
         * @return the backend
         * @throws IllegalArgumentException if an input was given without an output, so prompts would be lost
         */
        public ConsoleApproval build() {
            if (input != null && output == null) {
                throw new IllegalArgumentException("ConsoleApproval with its own input needs an output too; "
                        + "call output(...) on the builder so the human sees the question");
            }
            return new ConsoleApproval(this);
        }
    }
}
