package dev.mero.core.archfixture.cycle.spoke;

import dev.mero.core.archfixture.cycle.Hub;

/** Uses the fixture's root package back: the other half of the cycle {@link Hub} starts. */
@SuppressWarnings("unused")
public class Spoke {

    Hub hub() {
        return new Hub();
    }
}
