package dev.mero.tools;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.invocation.InvocationParameters;
import dev.mero.core.SecurityContext;
import dev.mero.core.ops.MeroOperations;
import dev.mero.core.catalogue.SearchToolTexts;
import java.util.Objects;

/**
 * LangChain4j search tools: {@code find_files} and {@code search_text}, implemented in Java on the core's
 * checks. Thin adapters over {@link MeroOperations}.
 */
public final class SearchTools {

    private final CallerOperations callers;

    /**
     * Creates the tools for a context, with the default limits.
     *
     * @param context the context that decides every call
     */
    public SearchTools(SecurityContext context) {
        this(MeroOperations.forContext(context));
    }

    /**
     * Creates the tools over operations with their own limits.
     *
     * @param operations the operations bound to a context
     */
    public SearchTools(MeroOperations operations) {
        this.callers = new CallerOperations(Objects.requireNonNull(operations, "operations"));
    }

    /**
     * Finds paths matching a glob.
     *
     * @param path    the directory to search
     * @param pattern the glob
     * @param parameters the AI-service call's invocation parameters: a {@link CallerIdentity} narrows the call
     * @return the matching virtual paths
     */
    @Tool(name = SearchToolTexts.FIND_FILES, value = SearchToolTexts.FIND_FILES_DESCRIPTION)
    public String findFiles(@P(name = "path", value = SearchToolTexts.FIND_FILES_PATH) String path,
                            @P(name = "pattern", value = SearchToolTexts.FIND_FILES_PATTERN) String pattern,
            InvocationParameters parameters) {
        return ToolCalls.call(callers, parameters, SearchToolTexts.FIND_FILES, "path", path, "pattern", pattern);
    }

    /**
     * Searches text files for a regular expression.
     *
     * @param path    the directory or file
     * @param pattern the regular expression
     * @param glob    which files to search, or {@code null}
     * @param parameters the AI-service call's invocation parameters: a {@link CallerIdentity} narrows the call
     * @return matching lines as {@code path:line: text}
     */
    @Tool(name = SearchToolTexts.SEARCH_TEXT, value = SearchToolTexts.SEARCH_TEXT_DESCRIPTION)
    public String searchText(@P(name = "path", value = SearchToolTexts.SEARCH_TEXT_PATH) String path,
                             @P(name = "pattern", value = SearchToolTexts.SEARCH_TEXT_PATTERN) String pattern,
                             @P(name = "glob", value = SearchToolTexts.SEARCH_TEXT_GLOB, required = false)
                             String glob,
            InvocationParameters parameters) {
        return ToolCalls.call(callers, parameters, SearchToolTexts.SEARCH_TEXT, "path", path, "pattern", pattern, "glob", glob);
    }
}
