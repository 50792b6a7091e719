/**
 * The built-in argument guards of the command policy: {@link dev.mero.core.command.guard.ArgumentGuards}.
 */
package dev.mero.core.command.guard;
