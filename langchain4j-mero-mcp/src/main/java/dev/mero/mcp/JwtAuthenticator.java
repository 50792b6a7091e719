package dev.mero.mcp;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import dev.mero.core.policy.ServerSettings;
import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks bearer JWTs with Nimbus JOSE+JWT against the policy's {@code server.auth.jwt} settings:
 * <ul>
 *   <li>signed with an algorithm of {@link #ALGORITHMS} (RSA, RSA-PSS, ECDSA: never {@code none}, never HMAC, so
 *       a public key can never be used as an HMAC secret) by a public key of the configured JWKS, chosen by
 *       {@code kid} and algorithm; symmetric and private keys in the JWKS are dropped;</li>
 *   <li>a token whose header brings its own key or a pointer to one ({@code jku}, {@code x5u}, {@code jwk},
 *       {@code x5c}) is refused outright, whatever the rest;</li>
 *   <li>{@code iss} exactly the issuer, {@code aud} naming the audience, {@code exp} required, {@code exp}/{@code nbf}
 *       with {@value #CLOCK_SKEW_SECONDS} s of skew, the caller claim a non-blank string, the scopes claim a
 *       space-separated string or a list of strings.</li>
 * </ul>
 * A JWKS file is read at start (unreadable or unparsable: {@link IllegalArgumentException}, the server does not
 * start) and read again on an unknown {@code kid}, at most every {@value #RELOAD_INTERVAL_SECONDS} s. A JWKS URL is
 * fetched on first use, cached, refreshed on an unknown {@code kid} (rate-limited by Nimbus); while it cannot be
 * fetched, tokens are refused (fail closed).
 */
final class JwtAuthenticator {

    static final Set<JWSAlgorithm> ALGORITHMS = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384, JWSAlgorithm.RS512,
            JWSAlgorithm.PS256, JWSAlgorithm.PS384, JWSAlgorithm.PS512, JWSAlgorithm.ES256, JWSAlgorithm.ES384,
            JWSAlgorithm.ES512);
    static final int CLOCK_SKEW_SECONDS = 30;
    static final int RELOAD_INTERVAL_SECONDS = 10;
    private static final int JWKS_TIMEOUT_MILLIS = 3000;
    private static final int JWKS_MAX_BYTES = 256 * 1024;

    private static final Logger LOG = LoggerFactory.getLogger(JwtAuthenticator.class);

    private final ServerSettings.Jwt settings;
    private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();

    JwtAuthenticator(ServerSettings.Jwt settings, Clock clock) {
        this.settings = settings;
        List<JWKSource<SecurityContext>> sources = new ArrayList<>();
        settings.jwksFile().ifPresent(file -> sources.add(new FileKeys(file, clock)));
        settings.jwksUrl().ifPresent(url -> {
            try {
                sources.add(JWKSourceBuilder.<SecurityContext>create(url.toURL(),
                                new DefaultResourceRetriever(JWKS_TIMEOUT_MILLIS, JWKS_TIMEOUT_MILLIS, JWKS_MAX_BYTES))
                        .retrying(false)
                        .build());
            } catch (MalformedURLException | IllegalArgumentException e) {
                throw new IllegalArgumentException("server.auth.jwt.jwks_url: " + url + " is not a URL", e);
            }
        });
        JWKSource<SecurityContext> keys = (selector, context) -> {
            List<JWK> found = new ArrayList<>();
            for (JWKSource<SecurityContext> source : sources) {
                found = publicAsymmetric(source.get(selector, context));
                if (!found.isEmpty()) {
                    break;
                }
            }
            return found;
        };
        processor.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(JOSEObjectType.JWT,
                new JOSEObjectType("at+jwt"), null));
        processor.setJWSKeySelector(new JWSVerificationKeySelector<>(ALGORITHMS, keys));
        DefaultJWTClaimsVerifier<SecurityContext> claims = new DefaultJWTClaimsVerifier<>(settings.audience(),
                new JWTClaimsSet.Builder().issuer(settings.issuer()).build(),
                Set.of("iss", "aud", "exp", settings.callerClaim())) {
            @Override
            protected Date currentTime() {
                return Date.from(clock.instant());
            }
        };
        claims.setMaxClockSkew(CLOCK_SKEW_SECONDS);
        processor.setJWTClaimsSetVerifier(claims);
    }

    /** Tells whether a bearer credential is shaped like a JWT (three dot-separated parts) rather than an API key. */
    static boolean looksLikeJwt(String credential) {
        return credential.chars().filter(c -> c == '.').count() == 2;
    }

    HttpCaller authenticate(String token) throws AuthenticationFailure {
        JWT parsed;
        try {
            parsed = JWTParser.parse(token);
        } catch (ParseException e) {
            throw refused("the bearer token is not a well-formed JWT.", e);
        }
        if (!(parsed instanceof SignedJWT signed)) {
            throw refused("the bearer token is not signed; only signed JWTs are accepted.", null);
        }
        JWSHeader header = signed.getHeader();
        if (header.getJWKURL() != null || header.getX509CertURL() != null || header.getJWK() != null
                || header.getX509CertChain() != null) {
            throw refused("the token's header names its own key (jku, x5u, jwk or x5c); only the server's key set "
                    + "is trusted.", null);
        }
        if (!ALGORITHMS.contains(header.getAlgorithm())) {
            throw refused("the token's algorithm " + header.getAlgorithm() + " is not accepted (RS, PS or ES "
                    + "algorithms only).", null);
        }
        JWTClaimsSet claims;
        try {
            claims = processor.process(signed, null);
        } catch (KeySourceException e) {
            LOG.warn("The JWKS could not be read; the token is refused: {}", e.getMessage());
            throw new AuthenticationFailure("the server cannot check tokens now (its key set is unavailable); try "
                    + "again later.", true);
        } catch (BadJWTException e) {
            String message = String.valueOf(e.getMessage());
            if (message.contains("Expired")) {
                throw refused("the token has expired; get a new one.", e);
            }
            if (message.contains("before use time")) {
                throw refused("the token is not valid yet (nbf).", e);
            }
            throw refused("the token's claims are not accepted by this server (issuer, audience or caller).", e);
        } catch (BadJOSEException | JOSEException e) {
            throw refused("the token's signature could not be verified with the server's keys.", e);
        }
        String caller = claims.getClaim(settings.callerClaim()) instanceof String name && !name.isBlank() ? name : null;
        if (caller == null) {
            throw refused("the token's " + settings.callerClaim() + " claim does not name a caller.", null);
        }
        Instant expires = claims.getExpirationTime().toInstant();
        return new HttpCaller(caller, scopes(claims.getClaim(settings.scopesClaim())),
                "jwt\u0000" + settings.issuer() + "\u0000" + caller, expires);
    }

    private List<String> scopes(Object claim) throws AuthenticationFailure {
        List<String> scopes = new ArrayList<>();
        if (claim == null) {
            return scopes; // no scopes granted: nothing that needs one is allowed
        }
        if (claim instanceof String text) {
            for (String scope : text.trim().split("\\s+")) {
                if (!scope.isEmpty()) {
                    scopes.add(scope);
                }
            }
            return scopes;
        }
        if (claim instanceof Collection<?> list) {
            for (Object scope : list) {
                if (!(scope instanceof String text)) {
                    throw refused("the token's " + settings.scopesClaim() + " claim must hold strings.", null);
                }
                scopes.add(text);
            }
            return scopes;
        }
        throw refused("the token's " + settings.scopesClaim() + " claim must be a string or a list of strings.",
                null);
    }

    private static AuthenticationFailure refused(String message, Exception cause) {
        if (cause != null) {
            LOG.debug("Token refused: {}", cause.getMessage());
        }
        return new AuthenticationFailure(message, true);
    }

    /** Only public keys of asymmetric types: an HMAC secret or a private key in the JWKS is never used. */
    private static List<JWK> publicAsymmetric(List<JWK> keys) {
        List<JWK> usable = new ArrayList<>();
        for (JWK key : keys) {
            JWK publicKey = key.toPublicJWK();
            if (publicKey != null && !publicKey.isPrivate()) {
                usable.add(publicKey);
            }
        }
        return usable;
    }

    /** A JWKS file: read at start, read again on an unknown key at most every {@value #RELOAD_INTERVAL_SECONDS} s. */
    private static final class FileKeys implements JWKSource<SecurityContext> {

        private final Path file;
        private final Clock clock;
        private volatile JWKSet keys;
        private volatile Instant loaded;

        FileKeys(Path file, Clock clock) {
            this.file = file;
            this.clock = clock;
            this.keys = load(file);
            this.loaded = clock.instant();
        }

        @Override
        public List<JWK> get(JWKSelector selector, SecurityContext context) {
            List<JWK> found = selector.select(keys);
            Instant now = clock.instant();
            if (found.isEmpty() && Duration.between(loaded, now).getSeconds() >= RELOAD_INTERVAL_SECONDS) {
                synchronized (this) {
                    if (Duration.between(loaded, now).getSeconds() >= RELOAD_INTERVAL_SECONDS) {
                        loaded = now;
                        try {
                            keys = load(file);
                        } catch (IllegalArgumentException e) {
                            LOG.warn("{}; the keys read before stay in use", e.getMessage());
                        }
                    }
                }
                found = selector.select(keys);
            }
            return found;
        }

        private static JWKSet load(Path file) {
            try (InputStream in = Files.newInputStream(file)) {
                byte[] bytes = in.readNBytes(JWKS_MAX_BYTES + 1);
                if (bytes.length > JWKS_MAX_BYTES) {
                    throw new IllegalArgumentException("The JWKS file " + file + " is larger than " + JWKS_MAX_BYTES
                            + " bytes");
                }
                return JWKSet.parse(new String(bytes, StandardCharsets.UTF_8));
            } catch (IOException | ParseException e) {
                throw new IllegalArgumentException("The JWKS file " + file + " cannot be read as a JSON Web Key "
                        + "Set: " + e.getMessage(), e);
            }
        }
    }
}
