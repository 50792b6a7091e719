package dev.mero.inbox;

import dev.mero.core.approval.ApprovalRequest;
import dev.mero.core.approval.StandingApproval;

import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Set;

/**
 * The inbox page, server-rendered: every piece of request text goes through {@link Html#escape(String)}, and
 * the only script is the page's own (select all, reload while nobody is choosing), allowed by a nonce.
 */
final class InboxPage {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String STYLE = """
            body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}
            table{border-collapse:collapse;width:100%}
            td,th{border-top:1px solid #ccc;padding:.4em;vertical-align:top;text-align:left}
            pre{background:#f6f6f6;padding:.5em;max-height:24em;overflow:auto;white-space:pre-wrap}
            .add{color:#075f07}.del{color:#a00}.msg{background:#fff6d5;padding:.4em;margin:.2em 0}
            .muted{color:#666;font-size:.9em}button{margin:.1em}
            """;
    private static final String SCRIPT = """
            document.getElementById('all').addEventListener('change',e=>{
              document.querySelectorAll('input[name=id]').forEach(c=>c.checked=e.target.checked);});
            setInterval(()=>{const busy=document.querySelector('input[name=id]:checked')||
              (document.activeElement&&document.activeElement.tagName==='INPUT');
              if(!busy&&location.search.indexOf('noreload')<0){location.replace(location.pathname);}},10000);
            """;

    private final Instant now;
    private final Duration timeout;
    private final boolean rules;
    private final Set<String> contexts;

    InboxPage(Instant now, Duration timeout, boolean rules, Set<String> contexts) {
        this.now = now;
        this.timeout = timeout;
        this.rules = rules;
        this.contexts = contexts;
    }

    static String nonce() {
        byte[] bytes = new byte[18];
        RANDOM.nextBytes(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }

    String render(String approver, String token, String hostFields, String nonce, List<String> messages,
                  List<ApprovalRequest> waiting, List<StandingApproval.Rule> active) {
        StringBuilder html = new StringBuilder(4096);
        html.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Approvals (")
                .append(waiting.size()).append(")</title><style nonce=\"").append(nonce).append("\">").append(STYLE)
                .append("</style></head><body><h1>Approvals waiting: <span id=\"count\">").append(waiting.size())
                .append("</span></h1><p class=\"muted\">Signed in as <b id=\"approver\">").append(Html.escape(approver))
                .append("</b>").append(contexts.isEmpty() ? "" : " · contexts " + Html.escape(String.join(", ", contexts)))
                .append(" · newest first</p>");
        for (String message : messages) {
            html.append("<p class=\"msg\" role=\"status\">").append(Html.escape(message)).append("</p>");
        }
        html.append("<form method=\"post\" id=\"inbox\"><input type=\"hidden\" name=\"token\" value=\"")
                .append(Html.escape(token)).append("\">").append(hostFields);
        if (waiting.isEmpty()) {
            html.append("<p id=\"empty\">Nothing is waiting for a decision.</p>");
        } else {
            html.append("<p><label><input type=\"checkbox\" id=\"all\"> select all</label> ")
                    .append("<button name=\"decision\" value=\"approve\" id=\"approve-selected\">Approve selected</button>")
                    .append("<button name=\"decision\" value=\"deny\" id=\"deny-selected\">Deny selected</button></p>")
                    .append("<table><tr><th></th><th>Context (caller)</th><th>Action</th><th>Details</th><th>Waiting</th>")
                    .append("<th>Decide</th></tr>");
            for (ApprovalRequest request : waiting) {
                row(html, request);
            }
            html.append("</table>");
        }
        html.append("</form>");
        if (!active.isEmpty()) {
            html.append("<h2>Standing rules</h2><ul id=\"rules\">");
            for (StandingApproval.Rule rule : active) {
                html.append("<li>").append(Html.escape(rule.action())).append(" for <b>")
                        .append(Html.escape(rule.contextName())).append("</b>, granted by ")
                        .append(Html.escape(rule.grantedBy())).append(", expires in ")
                        .append(span(Duration.between(now, rule.expiresAt()))).append("</li>");
            }
            html.append("</ul>");
        }
        html.append("<script nonce=\"").append(nonce).append("\">")
                .append(waiting.isEmpty() ? SCRIPT.substring(SCRIPT.indexOf("setInterval")) : SCRIPT)
                .append("</script></body></html>");
        return html.toString();
    }

    private void row(StringBuilder html, ApprovalRequest request) {
        String id = Html.escape(request.id());
        html.append("<tr class=\"request\" data-id=\"").append(id).append("\"><td><input type=\"checkbox\" name=\"id\" value=\"")
                .append(id).append("\" aria-label=\"select\"></td><td class=\"context\">")
                .append(Html.escape(request.contextName())).append("</td><td><code class=\"action\">")
                .append(Html.escape(request.action())).append("</code><div class=\"muted\">")
                .append(request.argv().isEmpty() ? "file: " + Html.escape(request.subject().orElse(""))
                        : "command line: " + Html.escape(String.join(" ", request.argv())))
                .append("</div>");
        if (!request.resolvedTargets().isEmpty()) {
            html.append("<details><summary class=\"muted\">resolved on the host</summary><pre>");
            request.resolvedTargets().forEach(target -> html.append(Html.escape(target)).append('\n'));
            html.append("</pre></details>");
        }
        html.append("</td><td>");
        request.details().ifPresentOrElse(details -> diff(html, details), () -> html.append("<span class=\"muted\">-</span>"));
        Duration age = Duration.between(request.requestedAt(), now);
        Duration left = Duration.between(now, request.requestedAt().plus(timeout));
        html.append("</td><td class=\"age\">").append(span(age)).append(" ago<div class=\"muted\">times out in ")
                .append(left.isNegative() ? "0s" : span(left)).append("</div></td><td>")
                .append("<button name=\"approve\" value=\"").append(id).append("\" class=\"approve\">Approve</button>")
                .append("<button name=\"deny\" value=\"").append(id).append("\" class=\"deny\">Deny</button>");
        if (rules && request.argv().isEmpty() && request.subject().isPresent()) {
            html.append("<div class=\"muted\">or approve and allow ").append(Html.escape(request.contextName()))
                    .append("'s ").append(Html.escape(String.join(", ", request.permissions().stream()
                            .map(Enum::name).toList())))
                    .append(" under <input name=\"pattern-").append(id).append("\" size=\"18\" value=\"")
                    .append(Html.escape(parentPattern(request.subject().get())))
                    .append("\"> for <input name=\"minutes-").append(id).append("\" size=\"3\" value=\"")
                    .append(ApprovalInboxServlet.DEFAULT_RULE_DURATION.toMinutes())
                    .append("\"> min <button name=\"rule\" value=\"").append(id)
                    .append("\" class=\"rule\">Approve + rule</button></div>");
        }
        html.append("</td></tr>");
    }

    /** A diff shown line by line, additions and removals marked; any other details shown as they are. */
    private static void diff(StringBuilder html, String details) {
        html.append("<pre class=\"details\">");
        for (String line : details.split("\n", -1)) {
            String css = line.startsWith("+") && !line.startsWith("+++") ? "add"
                    : line.startsWith("-") && !line.startsWith("---") ? "del" : null;
            if (css != null) {
                html.append("<span class=\"").append(css).append("\">").append(Html.escape(line)).append("</span>\n");
            } else {
                html.append(Html.escape(line)).append('\n');
            }
        }
        html.append("</pre>");
    }

    /** The directory of a virtual path as a subtree pattern: {@code /ws/docs/a.md} gives {@code /ws/docs/**}. */
    static String parentPattern(String subject) {
        int slash = subject.lastIndexOf('/');
        return (slash > 0 ? subject.substring(0, slash) : subject) + "/**";
    }

    /** A short, readable length of time: {@code 45s}, {@code 3m 05s}, {@code 2h 10m}. */
    static String span(Duration duration) {
        long seconds = Math.max(0, duration.toSeconds());
        if (seconds < 60) {
            return seconds + "s";
        }
        if (seconds < 3600) {
            return String.format("%dm %02ds", seconds / 60, seconds % 60);
        }
        return String.format("%dh %02dm", seconds / 3600, seconds % 3600 / 60);
    }
}
