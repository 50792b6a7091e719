package dev.mero.inbox;

/** HTML escaping: every character that could end a text node or an attribute value is replaced. */
final class Html {

    private Html() {
    }

    /**
     * Escapes text for an HTML text node or a double- or single-quoted attribute value; control characters
     * other than tab and newline become U+FFFD so that a file's bytes cannot confuse the page.
     *
     * @param text the text, may be {@code null}
     * @return the escaped text, {@code ""} for {@code null}
     */
    static String escape(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                case '`' -> out.append("&#96;");
                default -> out.append(c < 0x20 && c != '\n' && c != '\t' || c == 0x7f ? '\ufffd' : c);
            }
        }
        return out.toString();
    }
}
