package dev.mero.mcp;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * An authenticated HTTP caller: its name, the scopes its credential grants ({@code null}: the policy's own, for
 * an API key without scopes), the principal that owns its sessions, and when its credential expires.
 *
 * @param name      the caller's name (audit events, the narrowed context's name)
 * @param scopes    the credential's scopes, or {@code null} for the policy's
 * @param principal who owns sessions: the credential's kind, issuer and caller
 * @param expiresAt when the credential stops being accepted, or {@code null} (API keys)
 */
record HttpCaller(String name, List<String> scopes, String principal, Instant expiresAt) {

    HttpCaller {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(principal, "principal");
        scopes = scopes == null ? null : List.copyOf(scopes);
    }
}
