package dev.mero.core.archfixture.cycle.a;

import dev.mero.core.archfixture.cycle.b.Pong;

/** Half of a cycle between two sibling packages, for the cycle rule of {@code ArchitectureTest}. */
@SuppressWarnings("unused")
public class Ping {

    Pong pong() {
        return new Pong();
    }
}
