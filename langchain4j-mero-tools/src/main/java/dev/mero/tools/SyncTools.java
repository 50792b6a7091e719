package dev.mero.tools;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.invocation.InvocationParameters;
import dev.mero.core.SecurityContext;
import dev.mero.core.ops.MeroOperations;
import dev.mero.core.catalogue.SyncToolTexts;
import java.util.Objects;

/**
 * The LangChain4j sync tool {@code sync_directory}: one-way, rsync-like, between mounts. A thin adapter over
 * {@link MeroOperations}.
 */
public final class SyncTools {

    private final CallerOperations callers;

    /**
     * Creates the tool for a context.
     *
     * @param context the context that decides every call
     */
    public SyncTools(SecurityContext context) {
        this(MeroOperations.forContext(context));
    }

    /**
     * Creates the tool over operations.
     *
     * @param operations the operations bound to a context
     */
    public SyncTools(MeroOperations operations) {
        this.callers = new CallerOperations(Objects.requireNonNull(operations, "operations"));
    }

    /**
     * Syncs a directory into another.
     *
     * @param source           the directory to copy from
     * @param destination      the directory to copy into
     * @param deleteExtraneous delete what the source lacks, or {@code null}
     * @param dryRun           only report, or {@code null}
     * @param parameters the AI-service call's invocation parameters: a {@link CallerIdentity} narrows the call
     * @return what was copied, updated and deleted
     */
    @Tool(name = SyncToolTexts.SYNC_DIRECTORY, value = SyncToolTexts.SYNC_DIRECTORY_DESCRIPTION)
    public String syncDirectory(@P(name = "source", value = SyncToolTexts.SYNC_DIRECTORY_SOURCE) String source,
                                @P(name = "destination", value = SyncToolTexts.SYNC_DIRECTORY_DESTINATION)
                                String destination,
                                @P(name = "delete_extraneous", value = SyncToolTexts.SYNC_DIRECTORY_DELETE_EXTRANEOUS,
                                        required = false) Boolean deleteExtraneous,
                                @P(name = "dry_run", value = SyncToolTexts.SYNC_DIRECTORY_DRY_RUN, required = false)
                                Boolean dryRun,
            InvocationParameters parameters) {
        return ToolCalls.call(callers, parameters, SyncToolTexts.SYNC_DIRECTORY, "source", source, "destination", destination,
                "delete_extraneous", deleteExtraneous, "dry_run", dryRun);
    }
}
