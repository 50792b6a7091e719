package dev.mero.examples;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import java.util.Map;

/**
 * Which model the example runs with. Offline (a scripted model, no network) unless OpenAI is asked for
 * explicitly, with {@code --openai} or {@code MERO_MODEL=openai}, and {@code OPENAI_API_KEY} is set.
 */
final class ModelSelection {

    /** How to call the example, shown for a wrong argument. */
    static final String USAGE = "Usage: WorkspaceAgent [--openai]\n"
            + "  Runs offline with a scripted model by default. With --openai (or MERO_MODEL=openai) and\n"
            + "  OPENAI_API_KEY set, uses OpenAI; the model is OPENAI_MODEL (default gpt-4o-mini).";
    /** The OpenAI model used when {@code OPENAI_MODEL} is not set. */
    static final String DEFAULT_OPENAI_MODEL = "gpt-4o-mini";

    private final String openAiKey;
    private final String openAiModel;
    private final String problem;

    private ModelSelection(String openAiKey, String openAiModel, String problem) {
        this.openAiKey = openAiKey;
        this.openAiModel = openAiModel;
        this.problem = problem;
    }

    /**
     * Decides from the command line and the environment.
     *
     * @param args the command-line arguments
     * @param env  the environment variables
     * @return the selection; {@link #problem()} is set if the arguments cannot be honoured
     */
    static ModelSelection from(String[] args, Map<String, String> env) {
        boolean flag = args.length == 1 && args[0].equals("--openai");
        if (args.length > 0 && !flag) {
            return new ModelSelection(null, null, USAGE);
        }
        if (!flag && !"openai".equalsIgnoreCase(env.getOrDefault("MERO_MODEL", "").strip())) {
            return new ModelSelection(null, null, null);
        }
        String key = env.getOrDefault("OPENAI_API_KEY", "").strip();
        if (key.isEmpty()) {
            return new ModelSelection(null, null, "OpenAI was requested but OPENAI_API_KEY is not set.\n" + USAGE);
        }
        String model = env.getOrDefault("OPENAI_MODEL", "").strip();
        return new ModelSelection(key, model.isEmpty() ? DEFAULT_OPENAI_MODEL : model, null);
    }

    /**
     * Why the example cannot run as asked, or {@code null}.
     *
     * @return the problem, with usage
     */
    String problem() {
        return problem;
    }

    /**
     * Tells whether OpenAI was selected.
     *
     * @return {@code true} for OpenAI, {@code false} for the offline script
     */
    boolean isOpenAi() {
        return openAiKey != null;
    }

    /**
     * A one-line description for the transcript header.
     *
     * @return the description
     */
    String description() {
        return isOpenAi() ? "OpenAI model '" + openAiModel + "'" : "offline: scripted model, no network";
    }

    /**
     * Creates the selected model.
     *
     * @return the model
     */
    ChatModel chatModel() {
        if (problem != null) {
            throw new IllegalStateException(problem);
        }
        if (!isOpenAi()) {
            return ScriptedSession.model();
        }
        return OpenAiChatModel.builder().apiKey(openAiKey).modelName(openAiModel).build();
    }

    @Override
    public String toString() {
        // never shows the key
        return "ModelSelection{" + (problem != null ? "problem" : description()) + "}";
    }
}
