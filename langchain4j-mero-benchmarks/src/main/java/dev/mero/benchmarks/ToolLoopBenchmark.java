package dev.mero.benchmarks;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.service.AiServices;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.ops.MeroOperations;
import dev.mero.tools.MeroTools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A whole tool call through the LangChain4j tool loop ({@code AiServices} with a model that asks for one
 * {@code read_file} and then answers with its result) against calling the operation directly, in one run.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
// LangChain4j's call graph is large: the loop was still getting faster after three warm-up seconds (110, 81, 63,
// 50, 27, 24 us in the iterations of a run on a slower machine), so the measured mean included the warm-up
@Warmup(iterations = 10, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ToolLoopBenchmark extends TemporaryWorkspace {

    private static final String ARGUMENTS = "{\"path\":\"/ws/notes.txt\"}";

    /** The AI service the benchmark talks to. */
    public interface Agent {

        /**
         * One turn.
         *
         * @param message the user's message
         * @return the model's answer
         */
        String chat(String message);
    }

    private MeroOperations operations;
    private Agent agent;

    /**
     * A workspace with a 4 KiB file and an agent over it.
     *
     * @throws IOException if it cannot be created
     */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        Path ws = Files.createDirectories(base().resolve("ws"));
        Files.writeString(ws.resolve("notes.txt"), FileOperationBenchmark.text('n'));
        SecurityContext context = SecurityContext.builder().name("bench")
                .path(PathEntry.of(ws.toString(), "ws", Permission.READ)).build();
        operations = MeroOperations.forContext(context);
        agent = MeroTools.configure(AiServices.builder(Agent.class).chatModel(new OneToolCallModel()), context)
                .build();
    }

    /**
     * The operation called directly, JSON arguments parsed.
     *
     * @return the text for the model
     */
    @Benchmark
    public String directCall() {
        return operations.call("read_file", ARGUMENTS);
    }

    /**
     * The same call through the tool loop: two model turns, the provider, the handlers and the tool.
     *
     * @return the model's final answer (the tool's result)
     */
    @Benchmark
    public String throughToolLoop() {
        return agent.chat("read the notes");
    }

    /** Asks for {@code read_file} when the user spoke last, and answers with the tool's result after it. */
    static final class OneToolCallModel implements ChatModel {

        private final AtomicLong ids = new AtomicLong();

        @Override
        public ChatResponse doChat(ChatRequest request) {
            List<ChatMessage> messages = request.messages();
            AiMessage answer;
            if (messages.get(messages.size() - 1) instanceof ToolExecutionResultMessage result) {
                answer = AiMessage.from(result.text());
            } else {
                answer = AiMessage.from(ToolExecutionRequest.builder().id("call_" + ids.incrementAndGet())
                        .name("read_file").arguments(ARGUMENTS).build());
            }
            return ChatResponse.builder().aiMessage(answer)
                    .finishReason(answer.hasToolExecutionRequests() ? FinishReason.TOOL_EXECUTION : FinishReason.STOP)
                    .build();
        }
    }
}
