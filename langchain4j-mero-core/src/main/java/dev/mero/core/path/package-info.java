/**
 * Paths: how an agent's {@code /slug/...} path becomes a checked real path, and how it is opened.
 *
 * <p>{@link dev.mero.core.path.PathResolver} resolves and checks a path against the mounts (component by
 * component, links and protected paths included) into a {@link dev.mero.core.path.ResolvedPath};
 * {@link dev.mero.core.path.SecureFiles} opens a checked target without following a link the check did not see;
 * {@link dev.mero.core.path.ContentDigest} names the content an approval covered. Applications reach these
 * through {@link dev.mero.core.SecurityContext}; the classes public only for it say so in their Javadoc.
 */
package dev.mero.core.path;
