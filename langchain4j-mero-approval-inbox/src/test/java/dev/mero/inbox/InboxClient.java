package dev.mero.inbox;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A browser without a browser: keeps the inbox's cookie, reads the form's token and posts forms. */
final class InboxClient {

    private static final Pattern TOKEN = Pattern.compile("name=\"token\" value=\"([^\"]+)\"");

    private final URI uri;
    private final HttpClient http;

    InboxClient(URI uri) {
        this.uri = uri;
        this.http = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
    }

    /** The page. */
    HttpResponse<String> get() throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The token of the form the page shows. */
    String token() throws IOException, InterruptedException {
        Matcher matcher = TOKEN.matcher(get().body());
        if (!matcher.find()) {
            throw new AssertionError("no token in the page");
        }
        return matcher.group(1);
    }

    /** Posts a form of name/value pairs, with extra headers given as "Name: value". */
    HttpResponse<String> post(List<String> form, String... headers) throws IOException, InterruptedException {
        List<String> pairs = new ArrayList<>();
        for (int i = 0; i < form.size(); i += 2) {
            pairs.add(URLEncoder.encode(form.get(i), StandardCharsets.UTF_8) + "="
                    + URLEncoder.encode(form.get(i + 1), StandardCharsets.UTF_8));
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(String.join("&", pairs)));
        for (String header : headers) {
            String[] nameValue = header.split(": ", 2);
            request.header(nameValue[0], nameValue[1]);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
