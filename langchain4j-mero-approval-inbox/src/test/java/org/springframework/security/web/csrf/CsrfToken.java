package org.springframework.security.web.csrf;

/**
 * Stands in for Spring Security's {@code CsrfToken} in the inbox's tests: the inbox reads the host's token by
 * these two methods (the module does not depend on Spring Security).
 */
public interface CsrfToken {

    /** The form parameter the token goes in. */
    String getParameterName();

    /** The token. */
    String getToken();
}
