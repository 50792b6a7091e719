package dev.mero.mcp;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamWriteConstraints;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The Jackson mapper under the protocol's JSON: Jackson 2, the core's own, so that the server loads one JSON
 * stack and not two (the SDK's Jackson 3 binding loaded some 700 classes of its own before the first answer).
 *
 * <p>It is set to the Jackson 3 defaults the server was built and tested with, so that what it reads and writes
 * stays as it was, byte for byte: a line holding more than one JSON value is a parse error, not its first value;
 * JSON nested deeper than 500 levels is refused; a {@code null} for a primitive is an error, not a zero; an
 * unknown property is ignored; enums are written and read as their {@code toString()}, an object without
 * properties as {@code {}}. (Jackson 3 sorts properties alphabetically but keeps a record's components in their
 * order, which is Jackson 2's order without sorting: the SDK's messages are records.)
 */
final class ProtocolJackson {

    /** Jackson 3's bound on nesting, read and written (Jackson 2's is 1000). */
    private static final int MAX_NESTING_DEPTH = 500;

    private ProtocolJackson() {
    }

    /**
     * A new mapper.
     *
     * @return the mapper, as configured above
     */
    static JsonMapper mapper() {
        JsonFactory factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING_DEPTH).build())
                .streamWriteConstraints(StreamWriteConstraints.builder().maxNestingDepth(MAX_NESTING_DEPTH).build())
                .build();
        return JsonMapper.builder(factory)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.READ_ENUMS_USING_TO_STRING)
                .enable(SerializationFeature.WRITE_ENUMS_USING_TO_STRING)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
                .enable(MapperFeature.FIX_FIELD_NAME_UPPER_CASE_PREFIX)
                .disable(MapperFeature.ALLOW_FINAL_FIELDS_AS_MUTATORS)
                .disable(MapperFeature.USE_GETTERS_AS_SETTERS)
                .disable(MapperFeature.DEFAULT_VIEW_INCLUSION)
                .build();
    }
}
