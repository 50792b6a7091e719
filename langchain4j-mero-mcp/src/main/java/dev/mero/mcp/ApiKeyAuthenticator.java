package dev.mero.mcp;

import dev.mero.core.policy.ServerSettings;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Finds the caller of an API key by the key's SHA-256. Every configured digest is compared, in constant time
 * ({@link MessageDigest#isEqual}), whether or not an earlier one matched, so the time taken tells nothing about
 * which key, or how much of one, was right. A key that is not listed (never was, or was removed: revoked) is
 * refused.
 */
final class ApiKeyAuthenticator {

    private final List<ServerSettings.ApiKey> keys;
    private final List<byte[]> digests;

    ApiKeyAuthenticator(List<ServerSettings.ApiKey> keys) {
        this.keys = List.copyOf(keys);
        this.digests = this.keys.stream().map(key -> HexFormat.of().parseHex(key.sha256())).toList();
    }

    boolean isEmpty() {
        return keys.isEmpty();
    }

    Optional<HttpCaller> authenticate(String key) {
        byte[] digest = sha256(key);
        ServerSettings.ApiKey found = null;
        for (int i = 0; i < digests.size(); i++) {
            if (MessageDigest.isEqual(digests.get(i), digest) && found == null) {
                found = keys.get(i);
            }
        }
        if (found == null) {
            return Optional.empty();
        }
        return Optional.of(new HttpCaller(found.caller(), found.scopes().orElse(null), "key\u0000" + found.caller(),
                null));
    }

    static byte[] sha256(String key) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java runtime has SHA-256", e);
        }
    }
}
