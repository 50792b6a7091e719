package dev.mero.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Writing to a stream gives exactly the bytes {@code writeValueAsBytes} gives, through every mapper of the chain. */
class ForwardingJsonMapperTest {

    private final McpJsonMapper jackson = new JacksonMcpJsonMapper(ProtocolJackson.mapper());

    @Test
    void anAnswerIsWrittenAsWriteValueAsBytesGivesIt() throws IOException {
        McpJsonMapper mapper = new StrictParamsMapper(jackson);
        McpSchema.JSONRPCResponse answer = McpSchema.JSONRPCResponse.result(7, McpSchema.CallToolResult.builder()
                .content(List.of(new McpSchema.TextContent("a line\nand \"quotes\", tabs\t, é and \u2028")))
                .isError(false).build());

        byte[] written = written(mapper, answer);

        assertThat(written).isEqualTo(mapper.writeValueAsBytes(answer));
        assertThat(new String(written, StandardCharsets.UTF_8)).doesNotContain("\n").contains("\\n");
    }

    @Test
    void theHttpMapperMakesAnExceptionSafeOnTheStreamToo() throws IOException {
        HttpMessageMapper mapper = new HttpMessageMapper(jackson, name -> null);
        RuntimeException failure = new IllegalStateException("/srv/host/secret.txt");

        String written = new String(written(mapper, failure), StandardCharsets.UTF_8);

        assertThat(written).isEqualTo(new String(mapper.writeValueAsBytes(failure), StandardCharsets.UTF_8))
                .contains(GuardedTransportProvider.INTERNAL_ERROR_MESSAGE).doesNotContain("secret", "Exception");
    }

    private static byte[] written(McpJsonMapper mapper, Object value) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ForwardingJsonMapper.writeValue(mapper, out, value);
        return out.toByteArray();
    }
}
