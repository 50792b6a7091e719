package org.springframework.security.core;

/**
 * Stands in for Spring Security's {@code Authentication} in the auto-configuration's tests: only its presence on the
 * class path matters (the module does not depend on Spring Security); tests that need it absent hide it with a
 * {@code FilteredClassLoader}.
 */
public interface Authentication {
}
