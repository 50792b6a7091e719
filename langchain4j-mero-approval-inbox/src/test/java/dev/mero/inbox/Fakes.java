package dev.mero.inbox;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.Map;

/** Servlet requests and responses as plain proxies: what a method returns is looked up by its name (and argument). */
final class Fakes {

    private Fakes() {
    }

    /** A GET request between two addresses; {@code answers} adds "method" or "method:argument" keys. */
    static HttpServletRequest request(String remote, String local, Map<String, Object> answers) {
        Map<String, Object> all = new HashMap<>(Map.of("getMethod", "GET", "getRemoteAddr", remote,
                "getLocalAddr", local, "getContextPath", "", "getServletPath", ApprovalInboxServlet.DEFAULT_PATH,
                "isUserInRole", false, "isSecure", false, "getHeader:Host", local + ":8080"));
        all.putAll(answers);
        return (HttpServletRequest) Proxy.newProxyInstance(Fakes.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) -> {
                    String key = method.getName() + (args != null && args.length == 1 ? ":" + args[0] : "");
                    return all.containsKey(key) ? all.get(key) : all.get(method.getName());
                });
    }

    /** A response that keeps its status in {@code status[0]} and its body in {@code body}. */
    static HttpServletResponse response(StringWriter body, int[] status) {
        PrintWriter writer = new PrintWriter(body, true);
        return (HttpServletResponse) Proxy.newProxyInstance(Fakes.class.getClassLoader(),
                new Class<?>[] {HttpServletResponse.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "getWriter" -> {
                            return writer;
                        }
                        case "setStatus" -> status[0] = (Integer) args[0];
                        default -> {
                            // headers and content type are not what these tests look at
                        }
                    }
                    return method.getReturnType() == boolean.class ? false : null;
                });
    }
}
