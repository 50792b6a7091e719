/**
 * Structured errors: {@link dev.mero.core.error.ToolError}, the JSON envelope of a failed tool call, and
 * {@link dev.mero.core.error.ErrorCode}, the table of codes with status, retry flag and guidance.
 * {@link dev.mero.core.error.ToolError#from(Throwable)} maps every exception of the library.
 */
package dev.mero.core.error;
