/**
 * Policy files: {@link dev.mero.core.policy.SecurityPolicy} reads a YAML or JSON policy into a
 * {@link dev.mero.core.SecurityContext} builder, refusing unknown keys and values with
 * {@link dev.mero.core.InvalidPolicyException}. docs/policy-files.md lists every key it knows.
 */
package dev.mero.core.policy;
