package dev.mero.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.OctetSequenceKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import dev.mero.core.policy.ServerSettings;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JWT checks that need a clock or a key set that changes: expiry and not-before with their skew, a JWKS file read
 * again on an unknown key (at most every ten seconds), a JWKS URL fetched, cached and failing closed, HMAC keys in
 * the key set ignored, ECDSA accepted. No waiting: the authenticator's clock is moved by hand.
 */
class JwtAuthenticatorTest {

    private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");
    private static RSAKey k1;
    private static RSAKey k2;

    @TempDir
    Path dir;

    private final AtomicReference<Instant> now = new AtomicReference<>(T0);
    private final Clock clock = new Clock() {
        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    };

    @BeforeAll
    static void keys() throws Exception {
        k1 = new RSAKeyGenerator(2048).keyID("k1").generate();
        k2 = new RSAKeyGenerator(2048).keyID("k2").generate();
    }

    private ServerSettings.Jwt fileSettings(JWK... keys) throws Exception {
        Path jwks = Files.writeString(dir.resolve("jwks.json"), new JWKSet(List.of(keys)).toString(false));
        return new ServerSettings.Jwt("https://idp.test", "https://mcp.test/mcp", Optional.of(jwks), Optional.empty(),
                "sub", "scope");
    }

    private static String token(JWK key, JWSAlgorithm alg, Instant expires, Instant notBefore) throws Exception {
        JWTClaimsSet claims = new JWTClaimsSet.Builder().issuer("https://idp.test").audience("https://mcp.test/mcp")
                .subject("dana").claim("scope", List.of("files:*:read")).expirationTime(Date.from(expires))
                .notBeforeTime(notBefore == null ? null : Date.from(notBefore)).build();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(alg).keyID(key.getKeyID()).build(), claims);
        if (key instanceof RSAKey rsa) {
            jwt.sign(new RSASSASigner(rsa));
        } else if (key instanceof ECKey ec) {
            jwt.sign(new ECDSASigner(ec));
        } else {
            jwt.sign(new MACSigner((OctetSequenceKey) key));
        }
        return jwt.serialize();
    }

    @Test
    void expiryAndNotBeforeHoldWithThirtySecondsOfSkew() throws Exception {
        JwtAuthenticator jwt = new JwtAuthenticator(fileSettings(k1.toPublicJWK()), clock);
        String token = token(k1, JWSAlgorithm.RS256, T0.plusSeconds(60), T0.plusSeconds(20));

        HttpCaller caller = jwt.authenticate(token);
        assertThat(caller.name()).isEqualTo("dana");
        assertThat(caller.scopes()).containsExactly("files:*:read");
        assertThat(caller.expiresAt()).isEqualTo(T0.plusSeconds(60));
        now.set(T0.plusSeconds(89));
        assertThat(jwt.authenticate(token).name()).isEqualTo("dana");
        now.set(T0.plusSeconds(91));
        assertThatThrownBy(() -> jwt.authenticate(token)).isInstanceOf(AuthenticationFailure.class)
                .hasMessage("the token has expired; get a new one.");
        now.set(T0);
        String later = token(k1, JWSAlgorithm.RS256, T0.plusSeconds(600), T0.plusSeconds(31));
        assertThatThrownBy(() -> jwt.authenticate(later)).hasMessage("the token is not valid yet (nbf).");
    }

    @Test
    void anUnknownKeyReadsTheFileAgainAtMostEveryTenSeconds() throws Exception {
        JwtAuthenticator jwt = new JwtAuthenticator(fileSettings(k1.toPublicJWK()), clock);
        String byK2 = token(k2, JWSAlgorithm.RS256, T0.plusSeconds(3600), null);

        assertThatThrownBy(() -> jwt.authenticate(byK2)).isInstanceOf(AuthenticationFailure.class);
        fileSettings(k1.toPublicJWK(), k2.toPublicJWK()); // the key set is rotated on disk
        now.set(T0.plusSeconds(JwtAuthenticator.RELOAD_INTERVAL_SECONDS - 1));
        assertThatThrownBy(() -> jwt.authenticate(byK2)).as("not read again yet").isInstanceOf(AuthenticationFailure.class);
        now.set(T0.plusSeconds(JwtAuthenticator.RELOAD_INTERVAL_SECONDS + 1));
        assertThat(jwt.authenticate(byK2).name()).isEqualTo("dana");

        Files.writeString(dir.resolve("jwks.json"), "{broken");
        now.set(T0.plusSeconds(3 * JwtAuthenticator.RELOAD_INTERVAL_SECONDS));
        String unknown = token(new ECKeyGenerator(Curve.P_256).keyID("k3").generate(), JWSAlgorithm.ES256,
                T0.plusSeconds(3600), null);
        assertThatThrownBy(() -> jwt.authenticate(unknown)).isInstanceOf(AuthenticationFailure.class);
        assertThat(jwt.authenticate(byK2).name()).as("a broken rewrite keeps the keys read before").isEqualTo("dana");
    }

    @Test
    void anHmacKeyInTheKeySetIsNeverUsedAndEcdsaIsAccepted() throws Exception {
        OctetSequenceKey secret = new OctetSequenceKeyGenerator(256).keyID("h1").generate();
        ECKey ec = new ECKeyGenerator(Curve.P_256).keyID("e1").generate();
        JwtAuthenticator jwt = new JwtAuthenticator(fileSettings(secret, ec.toPublicJWK(), k1), clock);

        assertThatThrownBy(() -> jwt.authenticate(token(secret, JWSAlgorithm.HS256, T0.plusSeconds(60), null)))
                .isInstanceOf(AuthenticationFailure.class).hasMessageContaining("HS256 is not accepted");
        assertThat(jwt.authenticate(token(ec, JWSAlgorithm.ES256, T0.plusSeconds(60), null)).name()).isEqualTo("dana");
        assertThat(jwt.authenticate(token(k1, JWSAlgorithm.PS256, T0.plusSeconds(60), null)).principal())
                .isEqualTo("jwt\u0000https://idp.test\u0000dana");
    }

    @Test
    void aJwksUrlIsFetchedOnceAndAnUnreachableOneRefusesTokens() throws Exception {
        AtomicInteger fetches = new AtomicInteger();
        HttpServer idp = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        byte[] jwks = new JWKSet(k1.toPublicJWK()).toString().getBytes(StandardCharsets.UTF_8);
        idp.createContext("/jwks", exchange -> {
            fetches.incrementAndGet();
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, jwks.length);
            exchange.getResponseBody().write(jwks);
            exchange.close();
        });
        idp.start();
        try {
            URI url = URI.create("http://127.0.0.1:" + idp.getAddress().getPort() + "/jwks");
            JwtAuthenticator jwt = new JwtAuthenticator(new ServerSettings.Jwt("https://idp.test",
                    "https://mcp.test/mcp", Optional.empty(), Optional.of(url), "sub", "scope"), Clock.systemUTC());
            String token = token(k1, JWSAlgorithm.RS256, Instant.now().plusSeconds(300), null);

            assertThat(jwt.authenticate(token).name()).isEqualTo("dana");
            assertThat(jwt.authenticate(token).name()).isEqualTo("dana");
            assertThat(fetches.get()).as("cached").isEqualTo(1);
        } finally {
            idp.stop(0);
        }
        JwtAuthenticator down = new JwtAuthenticator(new ServerSettings.Jwt("https://idp.test", "https://mcp.test/mcp",
                Optional.empty(), Optional.of(URI.create("http://127.0.0.1:1/jwks")), "sub", "scope"), Clock.systemUTC());
        String token = token(k1, JWSAlgorithm.RS256, Instant.now().plusSeconds(300), null);
        assertThatThrownBy(() -> down.authenticate(token)).isInstanceOf(AuthenticationFailure.class)
                .hasMessageContaining("key set is unavailable");
    }
}
