package dev.mero.core;

/**
 * What an agent may do with a path: the four permissions a {@link PathEntry} allows or denies and a
 * {@link SecurityContext} caps.
 *
 * <p>The declaration order is the order in which permissions appear in every message, so that a model
 * (and a test) always sees the same text for the same decision.
 */
public enum Permission {
    /** Read a file's contents or list a directory. */
    READ,
    /** Create or modify a file or directory. */
    WRITE,
    /** Run a command with the path as its working directory or program. */
    EXECUTE,
    /** Remove a file or directory. */
    DELETE
}
