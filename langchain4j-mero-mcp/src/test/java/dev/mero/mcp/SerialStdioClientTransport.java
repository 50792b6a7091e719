package dev.mero.mcp;

import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import reactor.core.publisher.Mono;

/**
 * The SDK's stdio client transport, made safe for calls from several threads: its {@code sendMessage} emits
 * into a unicast sink that refuses a message emitted while another thread emits ("Failed to enqueue
 * message"), so concurrent calls through one client fail at random. Emitting under a lock fixes that.
 */
final class SerialStdioClientTransport extends StdioClientTransport {

    SerialStdioClientTransport(ServerParameters params, McpJsonMapper jsonMapper) {
        super(params, jsonMapper);
    }

    @Override
    public synchronized Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
        return super.sendMessage(message);
    }
}
