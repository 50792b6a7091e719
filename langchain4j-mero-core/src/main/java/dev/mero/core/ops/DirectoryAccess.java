package dev.mero.core.ops;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;

/**
 * Where a walk from the file-system root starts: the JDK's {@link SecureDirectoryStream} where the platform has
 * one; else the foreign-function layer's descriptor-relative directory ({@code openat} from a kept descriptor,
 * {@link PortableDirectories}, Java 22+); else, only if the running operation's context opted in
 * ({@link WeakerPathOpens}), a directory opened by path; else nothing, and the caller fails closed.
 */
final class DirectoryAccess {

    /**
     * Set to {@code absent} to behave as a platform whose JDK has no {@link SecureDirectoryStream}, for tests;
     * read once, when this class loads.
     */
    static final String PROPERTY = "mero.secureDirectoryStream";

    /** Why every file action fails where no way is left: what the model reads after "Could not read ...: ". */
    static final String NO_SECURE_ACCESS = "this platform offers no secure directory access, so the file tools "
            + "refuse every file action here; retrying will not help (the application can opt in to weaker path "
            + "opens)";

    /** Whether the JDK's secure directories are used where the platform has them; tests turn it off. */
    static volatile boolean jdkStreams = !"absent".equals(System.getProperty(PROPERTY));

    /** Whether the foreign-function layer's directories are used where the JDK has none; tests turn it off. */
    static volatile boolean portableStreams = true;

    private DirectoryAccess() {
    }

    /**
     * Opens the file-system root, where a walk to a directory starts, as a directory that opens its entries
     * without following links.
     *
     * @param directory the absolute path the walk leads to (the audit names it if it is opened by path)
     * @return the open root of {@code directory}
     * @throws IOException if it cannot be opened, or no way to open it safely is available here
     */
    static SecureDirectoryStream<Path> openRoot(Path directory) throws IOException {
        Path root = directory.getRoot();
        if (jdkStreams) {
            DirectoryStream<Path> opened = Files.newDirectoryStream(root);
            if (opened instanceof SecureDirectoryStream<Path> secure) {
                return secure;
            }
            opened.close();
        }
        SecureDirectoryStream<Path> portable = portableStreams ? PortableDirectories.openRoot(root) : null;
        if (portable != null) {
            return portable;
        }
        if (WeakerPathOpens.permit(directory)) {
            return PathDirectoryStream.open(root);
        }
        throw new FileSystemException(null, null, NO_SECURE_ACCESS);
    }

    /**
     * Whether handles opened here can be kept for other operations and contexts: not those opened by path, which
     * only the operation that opted in may use.
     *
     * @param stream an open directory
     * @return whether it may be kept
     */
    static boolean keepable(SecureDirectoryStream<Path> stream) {
        return !(stream instanceof PathDirectoryStream);
    }
}
