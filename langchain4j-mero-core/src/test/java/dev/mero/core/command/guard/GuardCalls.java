package dev.mero.core.command.guard;

import dev.mero.core.command.CommandLineParser;

import java.util.List;
import java.util.Optional;

/** Runs a guard on a command line split the way the policy splits it. */
final class GuardCalls {

    private GuardCalls() {
    }

    static Optional<String> check(ArgumentGuard guard, String line) {
        List<String> argv = CommandLineParser.parse(line);
        return guard.check(argv.get(0), argv.subList(1, argv.size()));
    }
}
