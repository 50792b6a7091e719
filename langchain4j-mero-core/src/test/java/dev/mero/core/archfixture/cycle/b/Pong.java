package dev.mero.core.archfixture.cycle.b;

import dev.mero.core.archfixture.cycle.a.Ping;

/** The other half of the cycle {@link Ping} starts. */
@SuppressWarnings("unused")
public class Pong {

    Ping ping() {
        return new Ping();
    }
}
