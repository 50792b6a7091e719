package dev.mero.examples;

/**
 * The AI service the example agent talks through; LangChain4j implements it.
 */
public interface Assistant {

    /**
     * Sends one user message and runs the tool loop until the model answers.
     *
     * @param userMessage the user's request
     * @return the model's final answer
     */
    String chat(String userMessage);
}
