package dev.mero.springai;

import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import dev.mero.core.SecurityContext;
import dev.mero.core.ops.MeroOperations;

/** Operations whose {@code read_file} has a bug: it throws, as real code with a defect would. */
final class BrokenOperations {

    private BrokenOperations() {
    }

    /** The context's tools, with {@code read_file} throwing {@code bug}. */
    static MeroOperations throwingOnReadFile(SecurityContext context, RuntimeException bug) {
        MeroOperations broken = mock(MeroOperations.class);
        when(broken.availableTools()).thenReturn(MeroOperations.forContext(context).availableTools());
        when(broken.respond(eq("read_file"), anyString())).thenThrow(bug);
        return broken;
    }
}
