package dev.mero.core.command.guard;

import java.util.Locale;

/**
 * How git and rsync tell a remote location from a local path: a URL ({@code scheme://...}), a remote helper
 * ({@code transport::address}), or the scp-like {@code [user@]host:path}, recognised when a colon comes before
 * the first slash. {@code file://} URLs are local; the path check judges them like paths.
 */
final class RemoteOperands {

    private RemoteOperands() {
    }

    /** Whether {@code text} names a location on another host, reached through a remote shell or the network. */
    static boolean isRemote(String text) {
        int scheme = text.indexOf("://");
        if (scheme > 0) {
            return !text.substring(0, scheme).toLowerCase(Locale.ROOT).equals("file");
        }
        return isScpLike(text) || usesRemoteHelper(text);
    }

    /** Whether git or rsync would start {@code ssh} for {@code text}: an ssh URL or the scp-like form. */
    static boolean runsRemoteShell(String text) {
        int scheme = text.indexOf("://");
        if (scheme > 0) {
            String name = text.substring(0, scheme).toLowerCase(Locale.ROOT);
            return name.equals("ssh") || name.equals("git+ssh") || name.equals("ssh+git");
        }
        return isScpLike(text) && !usesRemoteHelper(text);
    }

    /** {@code transport::address}: git runs the program {@code git-remote-<transport>}. */
    static boolean usesRemoteHelper(String text) {
        int helper = text.indexOf("::");
        int slash = text.indexOf('/');
        return helper > 0 && (slash < 0 || helper < slash);
    }

    private static boolean isScpLike(String text) {
        int colon = text.indexOf(':');
        int slash = text.indexOf('/');
        return colon > 0 && (slash < 0 || colon < slash) && !text.startsWith("-");
    }
}
