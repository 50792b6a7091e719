package dev.mero.examples;

import java.io.Reader;
import java.io.Writer;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * A human at the console, played offline: each approval prompt reads the next scripted answer, which is
 * echoed as if typed. When the answers run out the human stays silent (the input never ends), so the next
 * prompt times out, as it would for someone who walked away.
 */
final class ScriptedAnswers extends Reader {

    private final Deque<Character> typed = new ArrayDeque<>();
    private final Writer echo;

    /**
     * Creates the scripted human.
     *
     * @param answers one answer per prompt, in order, each without its line break
     * @param echo    where typed characters appear
     */
    ScriptedAnswers(List<String> answers, Writer echo) {
        this.echo = echo;
        answers.forEach(answer -> (answer + "\n").chars().forEach(c -> typed.add((char) c)));
    }

    @Override
    public synchronized boolean ready() {
        return !typed.isEmpty();
    }

    @Override
    public synchronized int read(char[] buffer, int offset, int length) {
        if (length == 0) {
            return 0;
        }
        // One line at most, as a terminal hands over what was typed when Enter is pressed.
        int count = 0;
        char last = 0;
        while (count < length && !typed.isEmpty() && last != '\n') {
            last = typed.poll();
            buffer[offset + count++] = last;
        }
        if (count == 0) {
            return 0; // silent: nothing typed (ConsoleApproval only reads when ready)
        }
        try {
            echo.write(buffer, offset, count);
            echo.flush();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return count;
    }

    @Override
    public void close() {
        // the console stays open
    }
}
