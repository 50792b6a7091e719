package dev.mero.core.ops;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;

/**
 * Descriptor-relative directories through the foreign-function API (the Java 25 version of the class, in the
 * multi-release jar), for JDKs without a {@link SecureDirectoryStream}: {@link DescriptorDirectoryStream} where
 * {@link PosixCalls} has a table for this system and native access is allowed, else nothing (the caller fails
 * closed, or opens by path if the operation's context opted in). {@code -Dmero.confinedCalls=off} turns it off
 * with the rest of the foreign-function layer.
 */
final class PortableDirectories {

    private PortableDirectories() {
    }

    /**
     * Opens the file-system root through the foreign-function layer.
     *
     * @param root the root
     * @return the open root, or {@code null} where the layer is not available
     * @throws IOException if it is available and the root cannot be opened
     */
    static SecureDirectoryStream<Path> openRoot(Path root) throws IOException {
        PosixCalls calls = Bound.CALLS;
        return calls == null ? null : DescriptorDirectoryStream.openRoot(calls, root);
    }

    /** The calls, bound once, on first use. */
    private static final class Bound {
        static final PosixCalls CALLS = bind();

        private static PosixCalls bind() {
            if ("off".equals(System.getProperty(ConfinedCalls.PROPERTY))) {
                return null;
            }
            try {
                return PosixCalls.forThisMachine();
            } catch (RuntimeException | LinkageError e) {
                // no row for this system, no such symbol, a row the machine disagrees with, native access denied
                return null;
            }
        }
    }
}
