package dev.mero.core.archfixture.layers;

/**
 * The facade of a fixture for the layered rules of {@code ArchitectureTest}, named like the real one. Never run;
 * only its class files are read.
 */
@SuppressWarnings("unused")
public class SecurityContext {

    String name() {
        return "fixture";
    }
}
