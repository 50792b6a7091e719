/**
 * Offline helpers for tests and demos of agents that use the mero tools: a scripted chat model that
 * stands in for a language model. Not for production use.
 */
package dev.mero.tools.testing;
