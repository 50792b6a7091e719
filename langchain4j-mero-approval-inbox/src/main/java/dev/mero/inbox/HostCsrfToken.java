package dev.mero.inbox;

import jakarta.servlet.http.HttpServletRequest;

import java.lang.reflect.Method;

/**
 * The host application's own CSRF token, when Spring Security's CSRF filter guards the page too: its token (the
 * request attribute {@code _csrf}, a {@code CsrfToken}) goes into the inbox's forms as a hidden field, so that
 * the filter lets the inbox's posts through without an exemption. Read reflectively: the module does not depend
 * on Spring Security.
 */
final class HostCsrfToken {

    private static final String ATTRIBUTE = "_csrf";
    private static final String TYPE = "org.springframework.security.web.csrf.CsrfToken";

    private HostCsrfToken() {
    }

    /**
     * The hidden field carrying the host's token, or {@code ""} when there is none.
     *
     * @param request the request the page answers
     * @return HTML, escaped
     */
    static String hiddenField(HttpServletRequest request) {
        Object token = request.getAttribute(ATTRIBUTE);
        if (token == null) {
            return "";
        }
        try {
            Class<?> type = Class.forName(TYPE, false, token.getClass().getClassLoader());
            if (!type.isInstance(token)) {
                return "";
            }
            Method name = type.getMethod("getParameterName");
            Method value = type.getMethod("getToken");
            return "<input type=\"hidden\" name=\"" + Html.escape(String.valueOf(name.invoke(token)))
                    + "\" value=\"" + Html.escape(String.valueOf(value.invoke(token))) + "\">";
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return ""; // no usable token: the host's filter refuses the post, as it would without the inbox
        }
    }
}
