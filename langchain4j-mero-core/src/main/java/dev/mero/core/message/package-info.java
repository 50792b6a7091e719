/**
 * The words every message shares: {@link dev.mero.core.message.Messages} quotes values, renders permission sets
 * and turns operating-system failures into sentences a model can act on.
 */
package dev.mero.core.message;
