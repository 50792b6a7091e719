package dev.mero.core.command.guard;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/** {@code npx} downloads and runs a package: always refused, even when a rule allows it. */
final class NpxGuard extends ProgramGuard {

    NpxGuard() {
        super(Set.of("npx", "npx-cli.js"));
    }

    @Override
    Optional<String> inspect(List<String> arguments) {
        return refuse("npx downloads and runs packages, whose code the policy cannot check; it is not available");
    }
}
