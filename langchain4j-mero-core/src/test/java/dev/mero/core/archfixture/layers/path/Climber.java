package dev.mero.core.archfixture.layers.path;

import dev.mero.core.archfixture.layers.SecurityContext;
import dev.mero.core.archfixture.layers.ops.Tool;

/**
 * A rule that reaches up: it calls back into the facade and uses an operation, both of which the layered rules
 * forbid below the facade.
 */
@SuppressWarnings("unused")
public class Climber {

    String callBack(SecurityContext context) {
        return context.toString();
    }

    String useATool() {
        return new Tool().run();
    }
}
