package dev.mero.core.ops;

import dev.mero.core.catalogue.ToolDescriptor;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;

/**
 * Compiles {@code search_text}'s regular expression with RE2/J, an engine whose matching time is linear in the
 * text and which never recurses on the input, so that no pattern can backtrack for hours or overflow the stack.
 * Constructs such an engine cannot run (backreferences, lookaround, possessive quantifiers, atomic groups) and
 * Java escapes RE2 spells differently are refused with a message that names the construct and what to write
 * instead.
 */
final class SearchPattern {

    static final int MAX_LENGTH = 1000;

    private SearchPattern() {
    }

    /**
     * Compiles a pattern.
     *
     * @param tool  the tool, for the invalid-input message
     * @param regex the expression the model wrote
     * @return the compiled pattern
     */
    static Pattern compile(ToolDescriptor tool, String regex) {
        if (regex.isEmpty() || regex.length() > MAX_LENGTH) {
            throw ToolArguments.invalid(tool, "'pattern' must be a regular expression of 1 to " + MAX_LENGTH
                    + " characters");
        }
        String unsupported = unsupported(regex);
        if (unsupported != null) {
            throw ToolArguments.invalid(tool, "'pattern' uses " + unsupported);
        }
        try {
            return Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw ToolArguments.invalid(tool, "'pattern' is not a valid regular expression (" + e.getDescription()
                    + " at '" + e.getPattern() + "'); search_text uses RE2 syntax");
        }
    }

    /**
     * Names the first construct of a pattern that RE2 cannot run, with what to use instead.
     *
     * @return the explanation, or {@code null} when the pattern has none
     */
    static String unsupported(String regex) {
        boolean inClass = false;
        // where a class's members start: a ']' there is a member, not the end ({@code []a]}, {@code [^]a]})
        int members = -1;
        boolean quoted = false;
        for (int i = 0; i < regex.length(); i++) {
            char c = regex.charAt(i);
            char next = i + 1 < regex.length() ? regex.charAt(i + 1) : 0;
            if (quoted) {
                // inside \Q...\E everything is literal
                if (c == '\\' && next == 'E') {
                    quoted = false;
                    i++;
                }
                continue;
            }
            if (c == '\\') {
                if (next == 'Q') {
                    quoted = true;
                } else {
                    String escape = escape(next, inClass);
                    if (escape != null) {
                        return escape;
                    }
                }
                i++;
            } else if (inClass) {
                inClass = c != ']' || i == members;
            } else if (c == '[') {
                inClass = true;
                members = next == '^' ? i + 2 : i + 1;
            } else if (c == '(' && next == '?') {
                String group = group(regex.substring(i + 2, Math.min(regex.length(), i + 4)));
                if (group != null) {
                    return group;
                }
            } else if ((c == '*' || c == '+' || c == '?' || c == '}') && next == '+' && quantifier(regex, i)) {
                return "a possessive quantifier ('" + c + "+'), which search_text's linear-time engine does not "
                        + "need: matching never backtracks, so write the plain quantifier ('" + c + "')";
            }
        }
        return null;
    }

    /** Whether the character at {@code i} ends a quantifier rather than being a literal. */
    private static boolean quantifier(String regex, int i) {
        if (regex.charAt(i) != '}') {
            // an escaped '*' never gets here: the scan skips the character after a backslash
            return i > 0;
        }
        int open = regex.lastIndexOf('{', i);
        if (open <= 0 || escaped(regex, open)) {
            return false;
        }
        int digits = 0;
        int commas = 0;
        for (int k = open + 1; k < i; k++) {
            char c = regex.charAt(k);
            if (c == ',' && digits > 0 && commas == 0) {
                commas++;
            } else if (c >= '0' && c <= '9') {
                digits++;
            } else {
                return false;
            }
        }
        return digits > 0;
    }

    /** Whether the character at {@code i} follows an odd number of backslashes. */
    private static boolean escaped(String regex, int i) {
        int backslashes = 0;
        while (i - backslashes > 0 && regex.charAt(i - backslashes - 1) == '\\') {
            backslashes++;
        }
        return backslashes % 2 == 1;
    }

    private static String group(String start) {
        if (start.startsWith("=") || start.startsWith("!")) {
            return "a lookahead ('(?" + start.charAt(0) + "'), which search_text's linear-time engine (RE2 syntax) "
                    + "cannot run; match the text itself instead (the whole matching line is shown), or search for "
                    + "the parts one after the other";
        }
        if (start.startsWith("<=") || start.startsWith("<!")) {
            return "a lookbehind ('(?" + start + "'), which search_text's linear-time engine (RE2 syntax) cannot "
                    + "run; match the text itself instead (the whole matching line is shown)";
        }
        if (start.startsWith(">")) {
            return "an atomic group ('(?>'), which search_text's linear-time engine does not need: matching never "
                    + "backtracks, so write a plain group '(?:...)'";
        }
        return null;
    }

    private static String escape(char c, boolean inClass) {
        if (c >= '1' && c <= '9' && !inClass) {
            return "a backreference ('\\" + c + "'), which search_text's linear-time engine (RE2 syntax) cannot "
                    + "run; write the repeated text out, or search for the first part and read the lines";
        }
        switch (c) {
            case 'k':
                return "a named backreference ('\\k<name>'), which search_text's linear-time engine (RE2 syntax) "
                        + "cannot run; write the repeated text out";
            case 'Z':
                return "'\\Z', which RE2 syntax does not have; write '$' (a line never includes its line break)";
            case 'G':
                return "'\\G', which RE2 syntax does not have; anchor with '^' instead";
            case 'R':
                return "'\\R', which RE2 syntax does not have; a line never includes its line break, so leave it "
                        + "out";
            case 'h':
                return "'\\h', which RE2 syntax does not have; write '[ \\t]'";
            case 'u':
                return "a '\\uhhhh' escape, which RE2 syntax writes as '\\x{hhhh}'";
            case 'e':
                return "'\\e', which RE2 syntax writes as '\\x1B'";
            case 'X':
                return "'\\X', which RE2 syntax does not have; write '.' or '\\pL\\pM*'";
            default:
                return null;
        }
    }
}
