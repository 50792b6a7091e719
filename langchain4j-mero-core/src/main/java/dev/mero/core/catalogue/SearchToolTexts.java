package dev.mero.core.catalogue;

/**
 * The names and model-facing texts of the search tools, as compile-time constants shared by the
 * {@link ToolCatalogue} and annotation-based bindings.
 */
public final class SearchToolTexts {

    /** Tool name. */
    public static final String FIND_FILES = "find_files";
    /** Description of {@value #FIND_FILES}. */
    public static final String FIND_FILES_DESCRIPTION = "Finds files and directories below a directory whose path "
            + "relative to it matches a glob, e.g. '*.md' (names at any depth), 'src/**/*.java' or "
            + "'**/test_*.py'. Results are virtual paths, sorted, bounded; symbolic links are not followed. "
            + FileToolTexts.ADDRESSING;
    /** Parameter description. */
    public static final String FIND_FILES_PATH = "Directory to search in, for example '/<mount>'";
    /** Parameter description. */
    public static final String FIND_FILES_PATTERN = "Glob pattern: '*' and '?' within a name, '**' across "
            + "directories, '[abc]', '[a-z]' and '[!a-z]' one character, '{a,b}' alternatives, '\\' before a "
            + "special character to match it literally";

    /** Tool name. */
    public static final String SEARCH_TEXT = "search_text";
    /** Description of {@value #SEARCH_TEXT}. */
    public static final String SEARCH_TEXT_DESCRIPTION = "Searches the text files below a directory (or one file) "
            + "for a regular expression (RE2 syntax, as in Go and ripgrep, matched in linear time) and returns "
            + "matching lines as 'path:line: text'. Bounded in time, files and matches, with a note when cut; binary "
            + "files are skipped. " + FileToolTexts.ADDRESSING;
    /** Parameter description. */
    public static final String SEARCH_TEXT_PATH = "Directory or file to search, for example '/<mount>'";
    /** Parameter description. */
    public static final String SEARCH_TEXT_PATTERN = "Regular expression (RE2 syntax) to look for in each line, "
            + "which never includes its line break: literals, '.', classes such as [a-z], [^0-9], \\d, \\w, \\s, "
            + "\\pL, [[:alpha:]], repetition '*', '+', '?', '{n,m}' (add '?' for lazy), '|', groups '(...)' and "
            + "'(?:...)', anchors '^', '$', '\\b', flags such as '(?i)' for any case, '\\Q...\\E' or '\\' for a "
            + "literal, '\\x{263A}' for a code point. Not supported: backreferences ('\\1'), lookahead and "
            + "lookbehind ('(?=', '(?!', '(?<=', '(?<!'), possessive quantifiers and atomic groups";
    /** Parameter description. */
    public static final String SEARCH_TEXT_GLOB = "Only search files whose relative path matches this glob, "
            + "e.g. '*.java' (default: all files)";

    private SearchToolTexts() {
    }
}
