package dev.mero.core.archfixture.cycle;

import dev.mero.core.archfixture.cycle.spoke.Spoke;

/**
 * The root package of a fixture for the cycle rule of {@code ArchitectureTest}: it uses a subpackage that uses
 * it back, a cycle through the root package. Never run; only its class files are read.
 */
@SuppressWarnings("unused")
public class Hub {

    Spoke spoke() {
        return new Spoke();
    }
}
