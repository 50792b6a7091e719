package dev.mero.tools;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.mero.core.InvalidInputException;
import dev.mero.core.MeroToolsException;
import dev.mero.core.message.Messages;
import dev.mero.core.NarrowingBuilder;
import dev.mero.core.OperationFailedException;
import dev.mero.core.SecurityContext;
import dev.mero.core.ops.UntrustedContent;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.StringJoiner;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * The manager's side of manager/worker agents: a {@code delegate_task(worker, task)} tool over registered worker
 * AI services. Each worker runs with a context narrowed from the manager's ({@link SecurityContext#narrow}), so a
 * worker can never be given more than its manager has: a narrowing that would widen fails when the worker is
 * registered. A worker's refusals come back to the manager as text ({@code Denied: ...}) it can act on; the
 * worker's answer is marked as data ({@link UntrustedContent}), since it may quote the files the worker read.
 *
 * <pre>{@code
 * DelegationTools delegation = DelegationTools.builder(managerContext)
 *         .worker("reader", "Reads files and summarises them",
 *                 narrowing -> narrowing.permissions(Permission.READ),
 *                 context -> MeroTools.configure(AiServices.builder(Worker.class).chatModel(model), context)
 *                         .build()::chat)
 *         .build();
 * Manager manager = AiServices.builder(Manager.class).chatModel(model).tools(delegation).build();
 * }</pre>
 * Thread-safe when the workers are.
 */
public final class DelegationTools {

    /** Tool name. */
    public static final String DELEGATE_TASK = "delegate_task";
    /** Description of {@value #DELEGATE_TASK}. */
    public static final String DELEGATE_TASK_DESCRIPTION = "Hands a task to a worker agent and returns the worker's "
            + "answer. Each worker has fewer rights than you; if it was refused something, its answer says so and "
            + "you can try another way. Naming a worker that does not exist returns the list of workers.";
    /** Parameter description. */
    public static final String WORKER = "Name of the worker to hand the task to";
    /** Parameter description. */
    public static final String TASK = "The task, in words the worker can act on without further context";

    /** A worker agent: a task in, its answer out. */
    @FunctionalInterface
    public interface Worker {

        /**
         * Performs a task.
         *
         * @param task the task
         * @return the worker's answer
         */
        String perform(String task);
    }

    private final Map<String, Registered> workers;

    private record Registered(String description, SecurityContext context, Worker worker) {
    }

    private DelegationTools(Map<String, Registered> workers) {
        this.workers = Collections.unmodifiableMap(new LinkedHashMap<>(workers));
    }

    /**
     * Starts registering workers under a manager's context.
     *
     * @param manager the manager's context; every worker's is narrowed from it
     * @return a new builder
     */
    public static Builder builder(SecurityContext manager) {
        return new Builder(manager);
    }

    /**
     * The context a worker runs with.
     *
     * @param name the worker's name
     * @return its narrowed context
     * @throws IllegalArgumentException if no such worker is registered
     */
    public SecurityContext workerContext(String name) {
        Registered registered = workers.get(name);
        if (registered == null) {
            throw new IllegalArgumentException("no worker " + name);
        }
        return registered.context();
    }

    /**
     * Hands a task to a worker.
     *
     * @param worker the worker's name
     * @param task   the task
     * @return the worker's answer between data markers
     * @throws MeroToolsException when the worker itself was stopped by a refusal or failure: {@code Denied: Worker
     *                            'w' was stopped: ...} (or {@code Error: ...}) for the model, flagged as an error
     */
    @Tool(name = DELEGATE_TASK, value = DELEGATE_TASK_DESCRIPTION)
    public String delegateTask(@P(name = "worker", value = WORKER) String worker,
                               @P(name = "task", value = TASK) String task) {
        if (task == null || task.isBlank()) {
            throw new InvalidInputException("Invalid input: the argument 'task' is missing or blank. Expected "
                    + "{\"worker\": string (required), \"task\": string (required)}.");
        }
        Registered registered = worker == null ? null : workers.get(worker);
        if (registered == null) {
            throw new InvalidInputException("Invalid input: there is no worker " + Messages.quote(worker)
                    + ". Expected one of: " + names() + ".");
        }
        try {
            String answer = registered.worker().perform(task);
            // the answer is another model's text about files it read: data for this model, never instructions
            return "Worker " + Messages.quote(worker) + " answered:\n" + UntrustedContent.wrap(DELEGATE_TASK, answer);
        } catch (MeroToolsException e) {
            // a refusal like any other: the handler turns it into Denied:/Error: text flagged as an error
            String message = "Worker " + Messages.quote(worker) + " was stopped: " + e.getMessage();
            throw e.isDenial() ? new MeroToolsException(message) : new OperationFailedException(message);
        }
    }

    private String names() {
        StringJoiner names = new StringJoiner(", ");
        workers.forEach((name, registered) -> names.add(name + " (" + registered.description() + ")"));
        return names.toString();
    }

    /** Registers workers; each is narrowed from the manager's context. */
    public static final class Builder {

        private final SecurityContext manager;
        private final Map<String, Registered> workers = new LinkedHashMap<>();

        private Builder(SecurityContext manager) {
            this.manager = Objects.requireNonNull(manager, "manager");
        }

        /**
         * Registers a worker.
         *
         * @param name        the worker's name, also its context's name
         * @param description what the worker is for, shown to the manager's model
         * @param narrowing   takes rights away from the manager's context for this worker
         * @param factory     builds the worker from its narrowed context, e.g. an AI service wired with
         *                    {@link MeroTools#configure}
         * @return this builder
         * @throws IllegalArgumentException if the narrowing would widen the manager's context or the name is taken
         */
        public Builder worker(String name, String description, UnaryOperator<NarrowingBuilder> narrowing,
                              Function<SecurityContext, Worker> factory) {
            Objects.requireNonNull(name, "name");
            if (workers.containsKey(name)) {
                throw new IllegalArgumentException("worker " + name + " is registered twice");
            }
            SecurityContext context = narrowing.apply(manager.narrow(name)).build();
            Worker worker = Objects.requireNonNull(factory.apply(context), "factory returned no worker");
            workers.put(name, new Registered(Objects.requireNonNull(description, "description"), context, worker));
            return this;
        }

        /**
         * Builds the tool.
         *
         * @return the delegation tool
         */
        public DelegationTools build() {
            if (workers.isEmpty()) {
                throw new IllegalStateException("register at least one worker");
            }
            return new DelegationTools(workers);
        }
    }
}
