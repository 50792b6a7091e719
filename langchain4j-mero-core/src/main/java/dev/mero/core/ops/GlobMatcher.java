package dev.mero.core.ops;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A glob compiled to a small automaton and matched without backtracking: the name is read once, code point by
 * code point, while the set of pattern positions it may have reached is kept, so matching takes time linear in
 * the name (times the pattern's size) whatever the pattern: {@code *a*a*a*a*a*a*b} against a 255-character name
 * is as quick as {@code *.md}. The JDK's matcher turns a glob into a backtracking regular expression instead,
 * which takes exponential time on such a pattern.
 *
 * <p>The syntax and meaning are those of the JDK's {@code glob:} path matcher on Unix, construct by construct:
 * {@code *} is any run of characters but {@code '/'}; {@code **} any run of characters but a line terminator
 * (it crosses directories: the JDK's {@code .*}); {@code ?} one character but {@code '/'}; {@code [abc]},
 * {@code [a-z]} and {@code [!a-z]} one character but {@code '/'}, in or not in the class ({@code [^...]} holds a
 * literal {@code '^'}, a {@code '-'} first or last is literal, a backslash in a class is literal);
 * {@code {a,b}} one of the alternatives (not nested); a backslash makes the next character literal. Invalid
 * globs are refused with the JDK's description ({@link GlobSyntaxException}).
 *
 * <p>Instances are immutable and thread-safe: each call to {@link #matches(CharSequence)} has its own state.
 */
final class GlobMatcher {

    /** A glob the JDK's matcher would refuse too, with its description. */
    static final class GlobSyntaxException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        GlobSyntaxException(String description) {
            super(description);
        }
    }

    private static final int LITERAL = 0;
    private static final int ANY = 1;
    private static final int CLASS = 2;
    private static final int STAR = 3;
    private static final int DOUBLE_STAR = 4;
    private static final int SPLIT = 5;
    private static final int JUMP = 6;
    private static final int MATCH = 7;

    private final int[] kinds;
    /** The code point of a literal, the index of a class, or the target of a jump. */
    private final int[] arguments;
    /** The first node of each alternative, for a split. */
    private final int[][] alternatives;
    private final CharClass[] classes;
    private final int stackSize;
    /** Literal text every match starts with, and ends with (e.g. {@code ".md"}): a quick necessary test. */
    private final String prefix;
    private final String suffix;

    private GlobMatcher(Builder builder) {
        this.kinds = builder.kinds.stream().mapToInt(Integer::intValue).toArray();
        this.arguments = builder.arguments.stream().mapToInt(Integer::intValue).toArray();
        this.alternatives = builder.alternatives.toArray(new int[0][]);
        this.classes = builder.classes.toArray(new CharClass[0]);
        // a follow pushes its start and each edge of a node it expands, and expands each node once
        int edges = kinds.length;
        for (int[] split : alternatives) {
            edges += split == null ? 0 : split.length;
        }
        this.stackSize = edges;
        this.prefix = literalRun(0, 1);
        this.suffix = new StringBuilder(literalRun(kinds.length - 2, -1)).reverse().toString();
    }

    /**
     * The code points of the literal nodes from one node on in one direction, as long as none is a surrogate: every
     * path to the match passes these nodes, since a group's jumps lead only to the node after its end.
     */
    private String literalRun(int from, int step) {
        StringBuilder run = new StringBuilder();
        for (int node = from; node >= 0 && kinds[node] == LITERAL; node += step) {
            int c = arguments[node];
            if (Character.charCount(c) != 1 || Character.isSurrogate((char) c)) {
                break;
            }
            run.append((char) c);
        }
        return run.toString();
    }

    /**
     * Compiles a glob.
     *
     * @param glob the glob
     * @return the matcher
     * @throws GlobSyntaxException if the JDK's matcher refuses it
     */
    static GlobMatcher compile(String glob) {
        Builder builder = new Builder();
        int i = 0;
        int split = -1;
        List<Integer> starts = new ArrayList<>();
        List<Integer> jumps = new ArrayList<>();
        while (i < glob.length()) {
            int c = glob.codePointAt(i);
            i += Character.charCount(c);
            switch (c) {
                case '\\':
                    if (i == glob.length()) {
                        throw new GlobSyntaxException("No character to escape");
                    }
                    int escaped = glob.codePointAt(i);
                    i += Character.charCount(escaped);
                    builder.add(LITERAL, escaped);
                    break;
                case '[':
                    i = builder.charClass(glob, i);
                    break;
                case '{':
                    if (split >= 0) {
                        throw new GlobSyntaxException("Cannot nest groups");
                    }
                    split = builder.add(SPLIT, 0);
                    starts.add(builder.size());
                    break;
                case ',':
                    if (split >= 0) {
                        jumps.add(builder.add(JUMP, 0));
                        starts.add(builder.size());
                    } else {
                        builder.add(LITERAL, c);
                    }
                    break;
                case '}':
                    if (split >= 0) {
                        jumps.add(builder.add(JUMP, 0));
                        builder.closeGroup(split, starts, jumps);
                        split = -1;
                    } else {
                        builder.add(LITERAL, c);
                    }
                    break;
                case '*':
                    if (i < glob.length() && glob.charAt(i) == '*') {
                        i++;
                        builder.add(DOUBLE_STAR, 0);
                    } else {
                        builder.add(STAR, 0);
                    }
                    break;
                case '?':
                    builder.add(ANY, 0);
                    break;
                default:
                    builder.add(LITERAL, c);
            }
        }
        if (split >= 0) {
            throw new GlobSyntaxException("Missing '}");
        }
        if (builder.emptyClass) {
            // the JDK translates the whole glob before its regular expression refuses the empty class
            throw new GlobSyntaxException("Unclosed character class");
        }
        builder.add(MATCH, 0);
        return new GlobMatcher(builder);
    }

    /**
     * Tells whether a whole text matches.
     *
     * @param text a path or a name
     * @return {@code true} on a match
     */
    boolean matches(CharSequence text) {
        if (!hasEnds(text)) {
            return false;
        }
        int[] current = new int[kinds.length];
        int[] next = new int[kinds.length];
        int[] marks = new int[kinds.length];
        int[] stack = new int[stackSize];
        int generation = 1;
        int size = follow(0, current, 0, marks, generation, stack);
        for (int i = 0; i < text.length() && size > 0; ) {
            int c = Character.codePointAt(text, i);
            i += Character.charCount(c);
            generation++;
            int nextSize = 0;
            for (int k = 0; k < size; k++) {
                int state = current[k];
                switch (kinds[state]) {
                    case LITERAL:
                        if (arguments[state] == c) {
                            nextSize = follow(state + 1, next, nextSize, marks, generation, stack);
                        }
                        break;
                    case ANY:
                        if (c != '/') {
                            nextSize = follow(state + 1, next, nextSize, marks, generation, stack);
                        }
                        break;
                    case CLASS:
                        if (classes[arguments[state]].contains(c)) {
                            nextSize = follow(state + 1, next, nextSize, marks, generation, stack);
                        }
                        break;
                    case STAR:
                        if (c != '/') {
                            nextSize = follow(state, next, nextSize, marks, generation, stack);
                        }
                        break;
                    case DOUBLE_STAR:
                        if (!isLineTerminator(c)) {
                            nextSize = follow(state, next, nextSize, marks, generation, stack);
                        }
                        break;
                    default:
                        // MATCH consumes nothing
                }
            }
            int[] swap = current;
            current = next;
            next = swap;
            size = nextSize;
        }
        for (int k = 0; k < size; k++) {
            if (kinds[current[k]] == MATCH) {
                return true;
            }
        }
        return false;
    }

    /**
     * The quick test before the automaton runs: whether a text starts with the glob's literal start and ends with
     * its literal end.
     */
    boolean hasEnds(CharSequence text) {
        int length = text.length();
        if (length < prefix.length() || length < suffix.length()) {
            return false;
        }
        for (int i = 0; i < prefix.length(); i++) {
            if (text.charAt(i) != prefix.charAt(i)) {
                return false;
            }
        }
        for (int i = 1; i <= suffix.length(); i++) {
            if (text.charAt(length - i) != suffix.charAt(suffix.length() - i)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Adds a node and every node reachable from it without reading a character to a state list, each once per
     * generation; iterative, so a long pattern cannot overflow the stack.
     *
     * @return the new size of the list
     */
    private int follow(int node, int[] list, int size, int[] marks, int generation, int[] stack) {
        int top = 0;
        stack[top++] = node;
        while (top > 0) {
            int state = stack[--top];
            if (marks[state] == generation) {
                continue;
            }
            marks[state] = generation;
            switch (kinds[state]) {
                case STAR:
                case DOUBLE_STAR:
                    list[size++] = state;
                    stack[top++] = state + 1;
                    break;
                case SPLIT:
                    for (int start : alternatives[state]) {
                        stack[top++] = start;
                    }
                    break;
                case JUMP:
                    stack[top++] = arguments[state];
                    break;
                default:
                    list[size++] = state;
            }
        }
        return size;
    }

    /** What Java's regular-expression {@code '.'} does not match, and so neither does the JDK's {@code **}. */
    private static boolean isLineTerminator(int c) {
        return c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029';
    }

    /** A bracket expression: ranges of code points, possibly negated; never matches {@code '/'}. */
    private static final class CharClass {
        private final int[] ranges;
        private final boolean negated;

        CharClass(int[] ranges, boolean negated) {
            this.ranges = ranges;
            this.negated = negated;
        }

        boolean contains(int c) {
            if (c == '/') {
                return false;
            }
            for (int i = 0; i < ranges.length; i += 2) {
                if (c >= ranges[i] && c <= ranges[i + 1]) {
                    return !negated;
                }
            }
            return negated;
        }
    }

    /** The nodes of an automaton being compiled. */
    private static final class Builder {
        final List<Integer> kinds = new ArrayList<>();
        final List<Integer> arguments = new ArrayList<>();
        final List<int[]> alternatives = new ArrayList<>();
        final List<CharClass> classes = new ArrayList<>();
        boolean emptyClass;

        int size() {
            return kinds.size();
        }

        int add(int kind, int argument) {
            kinds.add(kind);
            arguments.add(argument);
            alternatives.add(null);
            return kinds.size() - 1;
        }

        void closeGroup(int split, List<Integer> starts, List<Integer> jumps) {
            alternatives.set(split, starts.stream().mapToInt(Integer::intValue).toArray());
            for (int jump : jumps) {
                arguments.set(jump, size());
            }
            starts.clear();
            jumps.clear();
        }

        /**
         * Parses a bracket expression as the JDK does, from just after its {@code '['}.
         *
         * @return the index after its {@code ']'}
         */
        int charClass(String glob, int from) {
            int i = from;
            boolean negated = false;
            int[] ranges = new int[8];
            int count = 0;
            if (i < glob.length() && glob.charAt(i) == '^') {
                // the JDK escapes it: a literal '^', after which no range may start
                ranges[count++] = '^';
                ranges[count++] = '^';
                i++;
            } else {
                if (i < glob.length() && glob.charAt(i) == '!') {
                    negated = true;
                    i++;
                }
                if (i < glob.length() && glob.charAt(i) == '-') {
                    ranges[count++] = '-';
                    ranges[count++] = '-';
                    i++;
                }
            }
            boolean rangeMayStart = false;
            boolean closed = false;
            while (i < glob.length()) {
                int c = glob.codePointAt(i);
                i += Character.charCount(c);
                if (c == ']') {
                    closed = true;
                    break;
                }
                if (c == '/') {
                    throw new GlobSyntaxException("Explicit 'name separator' in class");
                }
                if (count + 2 > ranges.length) {
                    ranges = Arrays.copyOf(ranges, ranges.length * 2);
                }
                if (c == '-') {
                    if (!rangeMayStart) {
                        throw new GlobSyntaxException("Invalid range");
                    }
                    if (i == glob.length()) {
                        break;
                    }
                    int end = glob.codePointAt(i);
                    i += Character.charCount(end);
                    if (end == ']') {
                        // a '-' before the closing ']' is literal
                        ranges[count++] = '-';
                        ranges[count++] = '-';
                        closed = true;
                        break;
                    }
                    if (end < ranges[count - 1]) {
                        throw new GlobSyntaxException("Invalid range");
                    }
                    ranges[count - 1] = end;
                    rangeMayStart = false;
                } else {
                    ranges[count++] = c;
                    ranges[count++] = c;
                    rangeMayStart = true;
                }
            }
            if (!closed) {
                throw new GlobSyntaxException("Missing ']");
            }
            // "[]" and "[!]" become an empty class, which Java's regular expressions refuse
            emptyClass |= count == 0;
            classes.add(new CharClass(Arrays.copyOf(ranges, count), negated));
            add(CLASS, classes.size() - 1);
            return i;
        }
    }
}
