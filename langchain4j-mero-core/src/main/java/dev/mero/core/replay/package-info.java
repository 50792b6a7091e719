/**
 * Replays of tool calls: a {@link dev.mero.core.replay.ReplayStore} makes a tool-call id run its side effect
 * at most once and hands every repeat of the id the first result. {@link dev.mero.core.replay.InMemoryReplayStore}
 * is the default for one JVM; the {@code langchain4j-mero-postgres} module shares one store between
 * application instances.
 */
package dev.mero.core.replay;
