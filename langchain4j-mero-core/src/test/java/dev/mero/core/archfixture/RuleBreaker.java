package dev.mero.core.archfixture;

import dev.mero.core.MeroToolsException;

import java.io.IOException;
import java.util.List;

/**
 * Breaks every rule of {@code ArchitectureTest} on purpose, so that the tests can show each rule catches what
 * it should. Never run; only its class files are read.
 */
@SuppressWarnings("unused")
public class RuleBreaker {

    Process shell() throws IOException {
        return new ProcessBuilder("/bin/sh", "-c", "true").start();
    }

    Process exec() throws IOException {
        return Runtime.getRuntime().exec(new String[] {"true"});
    }

    ProcessBuilder swapProgram(ProcessBuilder checked) {
        return checked.command(List.of("/usr/bin/env"));
    }

    /** A denial declared outside {@code dev.mero.core}. */
    public static class StrayDenial extends MeroToolsException {

        private static final long serialVersionUID = 1L;

        StrayDenial() {
            super("stray");
        }
    }

    /** An exception a tool boundary's {@code catch (MeroToolsException e)} would miss. */
    public static class UnrelatedFailure extends RuntimeException {

        private static final long serialVersionUID = 1L;
    }
}
