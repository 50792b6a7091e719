package dev.mero.examples.readme;

import static dev.mero.tools.testing.ScriptedChatModel.lastToolResults;
import static java.nio.charset.StandardCharsets.UTF_8;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.AiServices;
import dev.mero.core.path.SecureFiles;
import dev.mero.core.guard.Operation;
import dev.mero.core.OperationFailedException;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.path.ResolvedPath;
import dev.mero.core.SecurityContext;
import dev.mero.core.approval.ApprovalBackends;
import dev.mero.core.approval.ChainedApproval;
import dev.mero.core.approval.ConsoleApproval;
import dev.mero.core.approval.SessionApprovalMemory;
import dev.mero.core.command.CommandResult;
import dev.mero.core.command.CommandSandbox;
import dev.mero.core.catalogue.ParameterType;
import dev.mero.core.catalogue.ToolDescriptor;
import dev.mero.core.catalogue.ToolHints;
import dev.mero.core.catalogue.ToolParameter;
import dev.mero.core.ops.MeroOperations;
import dev.mero.tools.DelegationTools;
import dev.mero.tools.MeroTools;
import dev.mero.tools.testing.ScriptedChatModel;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Map;

/**
 * The Java snippets of the README, compiled and run by {@link ReadmeSnippetsRunTest}. Each region between
 * {@code // README:begin name} and {@code // README:end} stands verbatim in README.md
 * ({@link ReadmeSnippetsTest} holds the two equal). {@code workspace} and {@code docs} are the host
 * directories a snippet exposes; {@code model} is the chat model.
 */
final class ReadmeSnippets {

    /** The AI service of the first snippet. */
    interface Assistant {
        String chat(String userMessage);
    }

    /** A worker agent's AI service. */
    interface Worker {
        String chat(String task);
    }

    /** The manager agent's AI service. */
    interface Manager {
        String chat(String request);
    }

    // Paths, so the snippets show PathEntry.of(Path, ...); PathEntry.of(String, ...) reads the same
    private final Path workspace;
    private final Path docs;
    private final ChatModel model;

    ReadmeSnippets(Path workspace, Path docs, ChatModel model) {
        this.workspace = workspace;
        this.docs = docs;
        this.model = model;
    }

    /** A test of your own agent: the model is a script, the tool loop and the tools are real. */
    Assistant scriptedModel(SecurityContext context) {
        // README:begin scripted-model
        ScriptedChatModel model = new ScriptedChatModel()
                .callTool("read_file", Map.of("path", "/ws/notes.txt"))
                .then(request -> AiMessage.from("The notes say: " + lastToolResults(request).get(0).text()));
        Assistant assistant = MeroTools.configure(AiServices.builder(Assistant.class).chatModel(model), context)
                .build();
        // README:end
        return assistant;
    }

    Assistant usingLangChain4j() {
        // README:begin using-langchain4j
        SecurityContext context = SecurityContext.builder()
                .name("worker_1")
                .path(PathEntry.of(workspace, "ws", Permission.READ, Permission.WRITE))
                .path(PathEntry.of(docs, "docs", Permission.READ))
                .build();

        Assistant assistant = MeroTools.configure(AiServices.builder(Assistant.class).chatModel(model), context)
                .build();
        // README:end
        return assistant;
    }

    ResolvedPath paths() {
        // README:begin paths
        SecurityContext context = SecurityContext.builder()
                .name("worker_1")
                .path(PathEntry.of(workspace, "ws", Permission.READ, Permission.WRITE))  // default mount
                .path(PathEntry.builder().path(docs).slug("docs").allow(Permission.READ).build())
                .permissions(Permission.READ, Permission.WRITE)   // ceiling over every entry (default: all four)
                .build();

        ResolvedPath target = context.checkPathAccess("/ws/notes.txt", Permission.WRITE);
        target.slug();         // "ws"
        target.virtualPath();  // "/ws/notes.txt"  (what the model should see)
        target.realPath();     // <workspace>/notes.txt, canonical (what the operation uses)
        context.recheck(target);  // right before use: still the same real path, still allowed?
        // README:end
        return target;
    }

    String commands() {
        // README:begin commands
        SecurityContext context = SecurityContext.builder()
                .name("worker_1")
                .path(PathEntry.of(workspace, "ws", Permission.READ, Permission.WRITE, Permission.EXECUTE))
                .allowCommand("git status")        // a token prefix: allows "git status --short", not "git push"
                .allowCommand("ls")
                .denyCommand("git status --ignored")
                .build();

        CommandResult result = context.runCommand("git status --short", "/ws");   // guard + run, in the sandbox
        String forTheModel = result.toModelText();   // output, or "Error: command exited with code 128. ..."
        // README:end
        return forTheModel;
    }

    SecurityContext protectedPaths() {
        // README:begin protected-paths
        SecurityContext context = SecurityContext.builder()
                .path(PathEntry.of(workspace, "ws", Permission.READ, Permission.WRITE, Permission.EXECUTE))
                .protectedPaths("**/*.sqlite", "config/creds.yaml")   // added to the default set
                // .defaultProtectedPaths(false)                      // drop the default set
                .build();
        context.protectedPaths();   // the globs in force, the default set first
        // README:end
        return context;
    }

    SecurityContext[] sandboxSettings() {
        // README:begin sandbox
        SecurityContext withNetwork = SecurityContext.builder()
                .path(PathEntry.of(workspace, "ws", Permission.READ, Permission.EXECUTE))
                .allowCommand("curl")
                .commandSandbox(CommandSandbox.builder().network(true).build())   // commands may use the network
                .build();
        SecurityContext unsandboxed = SecurityContext.builder()
                .path(PathEntry.of(workspace, "ws", Permission.READ, Permission.EXECUTE))
                .allowCommand("ls")
                .commandSandbox(CommandSandbox.disabled())   // explicit opt-out: checks only, one warning logged
                .build();
        // README:end
        return new SecurityContext[] {withNetwork, unsandboxed};
    }

    SecurityContext approval() {
        // README:begin approval
        SecurityContext context = SecurityContext.builder()
                .name("worker_1")
                .path(PathEntry.of(workspace, "ws", Permission.READ, Permission.WRITE, Permission.EXECUTE))
                .requireApproval(Permission.WRITE, Permission.EXECUTE)
                .approval(ChainedApproval.of(Duration.ofMinutes(2),
                        SessionApprovalMemory.wrap(ConsoleApproval.create()),   // remembers exact approvals only
                        ApprovalBackends.alwaysDeny()))
                .build();
        // README:end
        return context;
    }

    Manager managerAndWorkers(SecurityContext managerContext) {
        // README:begin delegation
        DelegationTools delegation = DelegationTools.builder(managerContext)
                .worker("reader", "reads and summarises files", narrowing -> narrowing.permissions(Permission.READ),
                        workerContext -> MeroTools.configure(AiServices.builder(Worker.class).chatModel(model),
                                workerContext).build()::chat)
                .build();
        Manager manager = MeroTools.configure(AiServices.builder(Manager.class).chatModel(model), managerContext)
                .tools(delegation).build();
        // README:end
        return manager;
    }

    // README:begin custom-tool
    /** A tool of your own on the same core: guarded like the built-in ones, refusals shown as Denied:/Error:. */
    static final class WordCountTool {

        private final SecurityContext context;

        WordCountTool(SecurityContext context) {
            this.context = context;
        }

        @Tool("Counts the words of a text file. Paths look like /<mount>/...; list_roots shows the mounts.")
        String count_words(@P("Path of the file, e.g. /ws/notes.md") String path) throws IOException {
            // scope, rate limit, path checks, approval and audit, in the fixed order; throws a MeroToolsException
            ResolvedPath target = context.guard(Operation.FILE_READ, path);
            // opened without following any link, so a link swapped in after the check leads nowhere
            try (SeekableByteChannel channel = SecureFiles.newByteChannel(target, StandardOpenOption.READ)) {
                String text = new String(Channels.newInputStream(channel).readNBytes(1 << 20), UTF_8);
                return target.virtualPath() + ": " + text.split("\\s+").length + " words";
            }
        }
    }
    // README:end

    static MeroOperations ownTool(SecurityContext context) {
        // README:begin own-tool
        // declared once: name, description, parameters, operations (its permissions follow) and named hints
        ToolDescriptor countWords = ToolDescriptor.builder().name("count_words")
                .description("Counts the words of a text file. Paths look like /<mount>/...")
                .parameter(ToolParameter.required("path", ParameterType.STRING, "The file, e.g. /ws/notes.md"))
                .operation(Operation.FILE_READ).hints(ToolHints.READ_ONLY).build();
        // bound to each context (a narrowed caller's too); every binding offers and runs it like a built-in tool
        MeroOperations operations = MeroOperations.builder(context)
                .tool(countWords, bound -> arguments -> {
                    ResolvedPath target = bound.guard(Operation.FILE_READ, arguments.string("path"));
                    try (SeekableByteChannel channel = SecureFiles.newByteChannel(target, StandardOpenOption.READ)) {
                        String text = new String(Channels.newInputStream(channel).readNBytes(1 << 20), UTF_8);
                        return target.virtualPath() + ": " + text.split("\\s+").length + " words";
                    } catch (IOException e) {
                        throw new OperationFailedException("Could not read " + target.virtualPath() + ".");
                    }
                })
                .build();
        // README:end
        return operations;
    }
}
