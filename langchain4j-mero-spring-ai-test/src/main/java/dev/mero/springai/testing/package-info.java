/**
 * A scripted Spring AI {@link org.springframework.ai.chat.model.ChatModel} for tests and offline demos: it
 * plays a fixed session instead of calling a language model and never touches the network.
 */
package dev.mero.springai.testing;
