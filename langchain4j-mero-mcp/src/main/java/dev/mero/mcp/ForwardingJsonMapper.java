package dev.mero.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import java.io.IOException;
import java.io.OutputStream;

/** A JSON mapper that hands every call to another one; a subclass changes only what it must. */
abstract class ForwardingJsonMapper implements McpJsonMapper {

    /** The mapper that does the work. */
    protected final McpJsonMapper delegate;

    ForwardingJsonMapper(McpJsonMapper delegate) {
        this.delegate = delegate;
    }

    @Override
    public <T> T readValue(String content, Class<T> type) throws IOException {
        return delegate.readValue(content, type);
    }

    @Override
    public <T> T readValue(byte[] content, Class<T> type) throws IOException {
        return delegate.readValue(content, type);
    }

    @Override
    public <T> T readValue(String content, TypeRef<T> type) throws IOException {
        return delegate.readValue(content, type);
    }

    @Override
    public <T> T readValue(byte[] content, TypeRef<T> type) throws IOException {
        return delegate.readValue(content, type);
    }

    @Override
    public <T> T convertValue(Object fromValue, Class<T> type) {
        return delegate.convertValue(fromValue, type);
    }

    @Override
    public <T> T convertValue(Object fromValue, TypeRef<T> type) {
        return delegate.convertValue(fromValue, type);
    }

    @Override
    public String writeValueAsString(Object value) throws IOException {
        return delegate.writeValueAsString(value);
    }

    @Override
    public byte[] writeValueAsBytes(Object value) throws IOException {
        return delegate.writeValueAsBytes(value);
    }

    /**
     * Writes the JSON text {@link #writeValueAsBytes} gives to a stream; a subclass that changes what is written
     * overrides both.
     */
    void writeValue(OutputStream out, Object value) throws IOException {
        writeValue(delegate, out, value);
    }

    /**
     * Writes a value's JSON text, as {@code mapper.writeValueAsBytes} gives it, to a stream: where the chain ends
     * in Jackson's mapper, straight from Jackson's buffer, without the array in between (a 4 KiB answer was copied
     * twice more on its way to the pipe).
     */
    static void writeValue(McpJsonMapper mapper, OutputStream out, Object value) throws IOException {
        if (mapper instanceof ForwardingJsonMapper forwarding) {
            forwarding.writeValue(out, value);
        } else if (mapper instanceof JacksonMcpJsonMapper jackson) {
            jackson.getObjectMapper().writeValue(out, value); // throws what writeValueAsBytes throws
        } else {
            out.write(mapper.writeValueAsBytes(value));
        }
    }
}
