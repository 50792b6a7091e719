package dev.mero.examples;

import dev.langchain4j.exception.AuthenticationException;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.ModelNotFoundException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.exception.UnresolvedModelServerException;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Which model the examples run with. Offline by default: a scripted model plays a recorded session and
 * nothing goes over the network. With {@code OPENAI_API_KEY} set, a real OpenAI-compatible model does the
 * work: {@code OPENAI_BASE_URL} (default {@value #DEFAULT_BASE_URL}) also reaches Ollama, vLLM and other
 * compatible servers, and {@code OPENAI_MODEL} names the model (default {@value #DEFAULT_MODEL}).
 * {@code --offline} (or {@code MERO_MODEL=scripted}) keeps the script even with a key.
 */
final class ModelSelection {

    /** Where OpenAI's API lives. */
    static final String DEFAULT_BASE_URL = "https://api.openai.com/v1";
    /** The model used when {@code OPENAI_MODEL} is not set. */
    static final String DEFAULT_MODEL = "gpt-4o-mini";
    /** How the transcript names the scripted model. */
    static final String SCRIPTED = "scripted (a recorded session played offline; no real model, no network)";
    /** How to call the examples, shown for a wrong argument. */
    static final String USAGE = String.join("\n",
            "Usage: mvn -B -ntp -q -Pdemo -DskipTests package [-Dexample=<name>] [-Dexec.args=--offline]",
            "Examples:",
            Example.list(),
            "Runs offline with a scripted model unless OPENAI_API_KEY is set; then a real OpenAI-compatible model",
            "answers: OPENAI_BASE_URL (default " + DEFAULT_BASE_URL + ") and OPENAI_MODEL (default " + DEFAULT_MODEL
                    + ") choose the server and the model. --offline (or MERO_MODEL=scripted) keeps the script.");

    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    /** The package of the errors of the OpenAI client Spring AI uses. */
    private static final String SPRING_OPENAI_ERRORS = "com.openai.errors.";

    private final String apiKey;
    private final String baseUrl;
    private final String modelName;
    private final String problem;

    private ModelSelection(String apiKey, String baseUrl, String modelName, String problem) {
        this.apiKey = apiKey;
        this.baseUrl = baseUrl;
        this.modelName = modelName;
        this.problem = problem;
    }

    /**
     * The scripted model, whatever the environment says.
     *
     * @return the selection
     */
    static ModelSelection scripted() {
        return new ModelSelection(null, null, null, null);
    }

    /**
     * Decides from the command line and the environment.
     *
     * @param args the command-line arguments: none, {@code --offline} or {@code --openai}
     * @param env  the environment variables
     * @return the selection; {@link #problem()} is set if the arguments cannot be honoured
     */
    static ModelSelection from(String[] args, Map<String, String> env) {
        boolean offline = false;
        boolean openAi = false;
        for (String arg : args) {
            if (arg.equals("--offline")) {
                offline = true;
            } else if (arg.equals("--openai")) {
                openAi = true;
            } else {
                return new ModelSelection(null, null, null, "Unknown argument " + arg + "\n" + USAGE);
            }
        }
        String mode = setting(env, "MERO_MODEL");
        if (offline && openAi) {
            return new ModelSelection(null, null, null, "Choose --offline or --openai, not both.\n" + USAGE);
        }
        if (offline || mode.equalsIgnoreCase("scripted")) {
            return scripted();
        }
        String key = setting(env, "OPENAI_API_KEY");
        if (key.isEmpty()) {
            return openAi || mode.equalsIgnoreCase("openai")
                    ? new ModelSelection(null, null, null,
                            "A real model was requested but OPENAI_API_KEY is not set.\n" + USAGE)
                    : scripted();
        }
        String url = setting(env, "OPENAI_BASE_URL");
        String model = setting(env, "OPENAI_MODEL");
        return new ModelSelection(key, url.isEmpty() ? DEFAULT_BASE_URL : url,
                model.isEmpty() ? DEFAULT_MODEL : model, null);
    }

    private static String setting(Map<String, String> env, String name) {
        String value = env.get(name);
        return value == null ? "" : value.strip();
    }

    /**
     * Why the examples cannot run as asked, or {@code null}.
     *
     * @return the problem, with usage
     */
    String problem() {
        return problem;
    }

    /**
     * Tells whether the scripted model plays.
     *
     * @return {@code true} offline
     */
    boolean isScripted() {
        return apiKey == null;
    }

    /**
     * The server a real model is reached at.
     *
     * @return the base URL, or {@code null} offline
     */
    String baseUrl() {
        return baseUrl;
    }

    /**
     * A one-line description for the transcript header.
     *
     * @return the description
     */
    String description() {
        return isScripted() ? SCRIPTED : "OpenAI-compatible model '" + modelName + "' at " + baseUrl;
    }

    /**
     * The model for one agent of an example.
     *
     * @param script the scripted model that agent uses offline
     * @return the script offline, else a real model
     */
    ChatModel chatModel(Supplier<? extends ChatModel> script) {
        if (problem != null) {
            throw new IllegalStateException(problem);
        }
        if (isScripted()) {
            return script.get();
        }
        return OpenAiChatModel.builder()
                .baseUrl(baseUrl)
                .apiKey(apiKey)
                .modelName(modelName)
                .timeout(TIMEOUT)
                .maxRetries(1)
                .build();
    }

    /**
     * The Spring AI model for an example.
     *
     * @param script the scripted model it uses offline
     * @return the script offline, else a real model through Spring AI's OpenAI client
     */
    org.springframework.ai.chat.model.ChatModel springChatModel(
            Supplier<? extends org.springframework.ai.chat.model.ChatModel> script) {
        if (problem != null) {
            throw new IllegalStateException(problem);
        }
        if (isScripted()) {
            return script.get();
        }
        return org.springframework.ai.openai.OpenAiChatModel.builder()
                .options(org.springframework.ai.openai.OpenAiChatOptions.builder()
                        .baseUrl(baseUrl)
                        .apiKey(apiKey)
                        .model(modelName)
                        .timeout(TIMEOUT)
                        .maxRetries(1)
                        .build())
                .build();
    }

    /**
     * Explains a failure to reach the model server, naming the URL that was tried and what to check.
     *
     * @param failure what the example threw
     * @return the explanation, or empty if the failure is not about the model server
     */
    Optional<String> explain(Throwable failure) {
        if (isScripted()) {
            return Optional.empty();
        }
        String server = "the model server at " + baseUrl;
        // the transport's own failure first: clients wrap it in errors of their own
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof UnresolvedModelServerException || t instanceof UnresolvedAddressException
                    || t instanceof UnknownHostException) {
                return Optional.of("Could not find " + server + ": its host name does not resolve. Check "
                        + "OPENAI_BASE_URL (for example http://localhost:11434/v1 for Ollama) and your network.");
            }
            if (t instanceof ConnectException || t instanceof HttpTimeoutException || t instanceof TimeoutException) {
                return Optional.of("Could not connect to " + server + " (" + reason(t) + "). Check that the "
                        + "server runs and listens there, and OPENAI_BASE_URL (most OpenAI-compatible servers "
                        + "expect it to end in /v1).");
            }
        }
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof AuthenticationException) {
                return Optional.of(capitalised(server) + " refused the API key (" + reason(t) + "). Check "
                        + "OPENAI_API_KEY.");
            }
            if (t instanceof ModelNotFoundException) {
                return Optional.of(capitalised(server) + " does not serve the model '" + modelName + "' ("
                        + reason(t) + "). Check OPENAI_MODEL.");
            }
            if (t instanceof HttpException http) {
                return Optional.of(capitalised(server) + " answered HTTP " + http.statusCode() + " ("
                        + reason(t) + "). Check OPENAI_BASE_URL, OPENAI_API_KEY and OPENAI_MODEL.");
            }
            if (t.getClass().getName().startsWith(SPRING_OPENAI_ERRORS)) {
                return Optional.of(capitalised(server) + " failed the request (" + reason(t) + "). Check "
                        + "OPENAI_BASE_URL, OPENAI_API_KEY and OPENAI_MODEL.");
            }
        }
        return Optional.empty();
    }

    private static String reason(Throwable t) {
        String message = t.getMessage();
        String text = message == null || message.isBlank() ? t.getClass().getSimpleName() : message.strip();
        return text.length() <= 200 ? text : text.substring(0, 200) + "...";
    }

    private static String capitalised(String text) {
        return Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }

    @Override
    public String toString() {
        // never shows the key
        return "ModelSelection{" + (problem != null ? "problem" : description()) + "}";
    }
}
