package dev.mero.examples;

import dev.mero.core.message.Messages;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditSink;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Prints what happens in a session so that a person can follow it: the task, every tool call with its
 * arguments, the result the model received and the audit events the call caused (right after it), and the
 * final answer. The same transcript serves the scripted and a real model, LangChain4j and Spring AI.
 *
 * <p>Everything printed is plain text: control characters that came from files, commands or the model
 * (terminal escape sequences included) are shown escaped, as {@code \u001b}, so the output never carries raw
 * escape codes, on a terminal or in a file. Thread-safe.
 */
final class Transcript {

    private static final int MAX_ARGUMENT_CHARS = 300;
    private static final String RESULT = "  result   ";
    private static final String FAILED = "  failed   ";
    private static final String AUDIT = "  audit    ";
    private static final String INDENT = "           ";

    private final PrintStream out;
    private final List<AuditEvent> pendingAudit = new ArrayList<>();

    /**
     * Creates a transcript.
     *
     * @param out where it is printed
     */
    Transcript(PrintStream out) {
        this.out = out;
    }

    /**
     * Prints which example runs, with which model.
     *
     * @param example          the example
     * @param modelDescription the model, as {@link ModelSelection#description()} gives it
     */
    synchronized void header(Example example, String modelDescription) {
        out.println("mero example '" + example.id() + "': " + example.summary());
        out.println("Model: " + printable(modelDescription));
    }

    /**
     * Prints what a context mounts and allows.
     *
     * @param context the context
     */
    synchronized void context(SecurityContext context) {
        out.println("Context " + Messages.quote(context.name()) + " mounts: " + mounts(context));
    }

    /**
     * Prints a line of narration (not from the model or a tool).
     *
     * @param text the text
     */
    synchronized void note(String text) {
        out.println(printable(text));
    }

    /**
     * Prints the user's message.
     *
     * @param message the message
     */
    synchronized void user(String message) {
        out.println();
        out.println("User: " + printable(message));
        out.println();
    }

    /**
     * Prints a tool call before it runs (an approval prompt it causes then appears below it).
     *
     * @param agent     who calls, or {@code null} for the example's only agent
     * @param tool      the tool's name
     * @param arguments the arguments as the model sent them
     */
    synchronized void toolCall(String agent, String tool, String arguments) {
        out.println((agent == null ? "" : "[" + agent + "] ") + "Tool call  " + tool + " "
                + printable(abbreviate(arguments)));
    }

    /**
     * Prints the result the model received, then the audit events recorded since the call.
     *
     * @param result the tool's text
     * @param failed whether the call was refused or failed
     */
    synchronized void toolResult(String result, boolean failed) {
        printBlock(failed ? FAILED : RESULT, String.valueOf(result));
        for (AuditEvent event : drainAudit()) {
            printBlock(AUDIT, auditLine(event));
        }
        out.println();
    }

    /**
     * Prints an agent's final answer.
     *
     * @param agent  who answers
     * @param answer the answer
     */
    synchronized void answer(String agent, String answer) {
        printBlock(agent + ": ", String.valueOf(answer), " ".repeat(agent.length() + 2));
    }

    /**
     * A sink that keeps audit events until the tool call that caused them is printed.
     *
     * @return the sink
     */
    AuditSink auditSink() {
        return event -> {
            synchronized (this) {
                pendingAudit.add(event);
            }
        };
    }

    /**
     * A writer into the transcript, for an approval prompt on the console.
     *
     * @return a writer that flushes into the transcript's stream
     */
    PrintWriter console() {
        return new PrintWriter(new Writer() {
            @Override
            public void write(char[] buffer, int offset, int length) {
                synchronized (Transcript.this) {
                    out.print(printable(new String(buffer, offset, length)));
                }
            }

            @Override
            public void flush() {
                out.flush();
            }

            @Override
            public void close() {
                flush();
            }
        }, true);
    }

    /**
     * The text with every control character except line breaks and tabs shown as a {@code \\u} escape with
     * four hexadecimal digits (BEL is {@code \\u0007}).
     *
     * @param text any text
     * @return printable text
     */
    static String printable(String text) {
        StringBuilder shown = new StringBuilder(text.length());
        text.codePoints().forEach(c -> {
            if (c == '\n' || c == '\t' || !(Character.isISOControl(c) || isInvisibleFormat(c))) {
                shown.appendCodePoint(c);
            } else {
                shown.append(String.format("\\u%04x", c));
            }
        });
        return shown.toString();
    }

    private static boolean isInvisibleFormat(int c) {
        // bidirectional overrides and isolates reorder what a terminal shows
        return c >= 0x202a && c <= 0x202e || c >= 0x2066 && c <= 0x2069;
    }

    private List<AuditEvent> drainAudit() {
        List<AuditEvent> events = new ArrayList<>(pendingAudit);
        pendingAudit.clear();
        return events;
    }

    private static String auditLine(AuditEvent event) {
        StringBuilder line = new StringBuilder(event.type().name());
        event.action().ifPresent(action -> line.append(' ').append(Messages.quote(action)));
        event.errorCode().ifPresent(code -> line.append(" (").append(code).append(')'));
        return line.toString();
    }

    private void printBlock(String label, String text) {
        printBlock(label, text, INDENT);
    }

    private void printBlock(String label, String text, String indent) {
        List<String> lines = printable(text).lines().collect(Collectors.toList());
        if (lines.isEmpty()) {
            out.println(label.stripTrailing());
        }
        for (int i = 0; i < lines.size(); i++) {
            out.println(((i == 0 ? label : indent) + lines.get(i)).stripTrailing());
        }
    }

    /** Each mount with what the context may do there: the entry's allows within the context's ceiling. */
    private static String mounts(SecurityContext context) {
        return context.paths().stream()
                .map(entry -> {
                    Set<Permission> effective = EnumSet.noneOf(Permission.class);
                    effective.addAll(entry.allowed());
                    effective.retainAll(context.permissions());
                    effective.removeAll(entry.denied());
                    return entry.mountPoint() + " " + Messages.permissions(effective);
                })
                .collect(Collectors.joining(", "));
    }

    private static String abbreviate(String text) {
        return text.length() <= MAX_ARGUMENT_CHARS ? text : text.substring(0, MAX_ARGUMENT_CHARS) + "...";
    }
}
