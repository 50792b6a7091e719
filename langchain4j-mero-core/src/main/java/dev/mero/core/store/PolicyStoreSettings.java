package dev.mero.core.store;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a shared {@link PolicyStore} lives, as a policy file's {@code store:} section names it:
 *
 * <pre>
 * store:
 *   url: jdbc:postgresql://db.internal:5432/agents
 *   user: mero
 *   password_env: MERO_DB_PASSWORD   # the password is read from this environment variable, never inline
 *   migrate: true                    # apply the schema migrations on start (default false)
 *   timeout: PT5S                    # bound on every wait for the store (default 5 seconds)
 * </pre>
 *
 * <p>A URL that carries a password (a {@code password=} parameter or {@code user:password@}) is refused:
 * secrets stay out of policy files. {@link #toString()} never shows the password. Instances are immutable.
 */
public final class PolicyStoreSettings {

    /** Default bound on every wait for the store. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

    private final String url;
    private final String user;
    private final String password;
    private final boolean migrate;
    private final Duration timeout;

    private PolicyStoreSettings(Builder builder) {
        if (builder.url == null) {
            throw new IllegalArgumentException("A policy store needs a 'url', e.g. jdbc:postgresql://host/db");
        }
        this.url = builder.url;
        this.user = builder.user;
        this.password = builder.password;
        this.migrate = builder.migrate;
        this.timeout = builder.timeout;
    }

    /**
     * Starts a builder.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The store's URL, for example a JDBC URL.
     *
     * @return the URL, without credentials
     */
    public String url() {
        return url;
    }

    /**
     * The user to connect as.
     *
     * @return the user, absent to let the driver choose
     */
    public Optional<String> user() {
        return Optional.ofNullable(user);
    }

    /**
     * The password, as read from the environment variable the policy names.
     *
     * @return the password, absent when none is needed
     */
    public Optional<String> password() {
        return Optional.ofNullable(password);
    }

    /**
     * Whether to apply the schema migrations when the store opens.
     *
     * @return {@code true} to migrate
     */
    public boolean migrate() {
        return migrate;
    }

    /**
     * The bound on every wait for the store: connecting, a query, a lock.
     *
     * @return a positive duration
     */
    public Duration timeout() {
        return timeout;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PolicyStoreSettings that && url.equals(that.url) && Objects.equals(user, that.user)
                && Objects.equals(password, that.password) && migrate == that.migrate
                && timeout.equals(that.timeout);
    }

    @Override
    public int hashCode() {
        return Objects.hash(url, user, password, migrate, timeout);
    }

    @Override
    public String toString() {
        return "PolicyStoreSettings{url=" + url + ", user=" + user + ", password="
                + (password == null ? "none" : "***") + ", migrate=" + migrate + ", timeout=" + timeout + "}";
    }

    /** Builds {@link PolicyStoreSettings}; a URL is required. */
    public static final class Builder {

        private String url;
        private String user;
        private String password;
        private boolean migrate;
        private Duration timeout = DEFAULT_TIMEOUT;

        private Builder() {
        }

        /**
         * Sets the store's URL.
         *
         * @param url for example {@code jdbc:postgresql://host:5432/db}; no password in it
         * @return this builder
         * @throws IllegalArgumentException if the URL is blank, has control characters or carries a password
         */
        public Builder url(String url) {
            if (url == null || url.isBlank() || url.chars().anyMatch(Character::isISOControl)) {
                throw new IllegalArgumentException("the store URL must be non-blank without control characters");
            }
            String lower = url.toLowerCase(Locale.ROOT);
            int authority = lower.indexOf("//");
            int path = authority < 0 ? -1 : lower.indexOf('/', authority + 2);
            String hostPart = authority < 0 ? "" : lower.substring(authority + 2, path < 0 ? lower.length() : path);
            if (lower.contains("password=") || hostPart.contains("@")) {
                throw new IllegalArgumentException("the store URL must not carry a password or user info; "
                        + "name the user with 'user' and the password's environment variable with 'password_env'");
            }
            this.url = url;
            return this;
        }

        /**
         * Sets the user to connect as.
         *
         * @param user the user, may be {@code null}
         * @return this builder
         */
        public Builder user(String user) {
            this.user = user;
            return this;
        }

        /**
         * Sets the password (read from the environment by the policy loader, never from the file).
         *
         * @param password the password, may be {@code null}
         * @return this builder
         */
        public Builder password(String password) {
            this.password = password;
            return this;
        }

        /**
         * Sets whether to apply the schema migrations when the store opens (default {@code false}).
         *
         * @param migrate {@code true} to migrate
         * @return this builder
         */
        public Builder migrate(boolean migrate) {
            this.migrate = migrate;
            return this;
        }

        /**
         * Sets the bound on every wait for the store (default 5 seconds).
         *
         * @param timeout 1 millisecond to 10 minutes
         * @return this builder
         */
        public Builder timeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.compareTo(Duration.ofMillis(1)) < 0 || timeout.compareTo(Duration.ofMinutes(10)) > 0) {
                throw new IllegalArgumentException("the store timeout must be between 1 ms and 10 minutes, was "
                        + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        /**
         * Builds the settings.
         *
         * @return the settings
         * @throws IllegalArgumentException if no URL was set
         */
        public PolicyStoreSettings build() {
            return new PolicyStoreSettings(this);
        }
    }
}
