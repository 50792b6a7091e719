package dev.mero.core.archfixture.layers.ops;

/** An operation of the fixture: the layer above the facade. */
@SuppressWarnings("unused")
public class Tool {

    public String run() {
        return "ran";
    }
}
