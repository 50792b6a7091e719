package dev.mero.core.catalogue;

import dev.mero.core.ops.OperationLimits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.guard.Operation;
import dev.mero.core.Permission;
import org.junit.jupiter.api.Test;

/**
 * The catalogue's value types built directly (the standard catalogue is built once, in a static initialiser):
 * parameters, descriptors with their schema and hint, and the limits' validation at its boundaries.
 */
class CatalogueValueTypesTest {

    private static final ToolParameter PATH = ToolParameter.required("path", ParameterType.STRING, "where");
    private static final ToolParameter LIMIT = ToolParameter.optional("limit", ParameterType.INTEGER, "how many");

    @Test
    void parametersAreValuesWithValidatedNames() {
        assertThat(PATH.name()).isEqualTo("path");
        assertThat(PATH.required()).isTrue();
        assertThat(LIMIT.required()).isFalse();
        assertThat(LIMIT.type()).isEqualTo(ParameterType.INTEGER);
        assertThat(LIMIT.description()).isEqualTo("how many");
        assertThat(PATH).isEqualTo(ToolParameter.required("path", ParameterType.STRING, "where"))
                .hasSameHashCodeAs(ToolParameter.required("path", ParameterType.STRING, "where"))
                .isNotEqualTo(ToolParameter.optional("path", ParameterType.STRING, "where"))
                .isNotEqualTo(ToolParameter.required("path", ParameterType.INTEGER, "where"))
                .isNotEqualTo(ToolParameter.required("paths", ParameterType.STRING, "where"))
                .isNotEqualTo(ToolParameter.required("path", ParameterType.STRING, "elsewhere"))
                .isNotEqualTo("path");
        assertThat(PATH).hasToString("path: string");
        assertThat(LIMIT).hasToString("limit?: integer");
        assertThatThrownBy(() -> ToolParameter.required("Path", ParameterType.STRING, "x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'Path'");
        assertThatThrownBy(() -> ToolParameter.optional("1a", ParameterType.STRING, "x"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aDescriptorDerivesItsSchemaAndHintFromItsParameters() {
        ToolDescriptor tool = ToolDescriptor.builder().name("peek_file").description("Peeks.").parameter(PATH)
                .parameter(LIMIT).operation(Operation.FILE_READ).permission(Permission.READ)
                .hints(ToolHints.of(true, false, true, false)).untrustedOutput(true).build();

        assertThat(tool.name()).isEqualTo("peek_file");
        assertThat(tool.parameters()).containsExactly(PATH, LIMIT);
        assertThat(tool.parameter("limit")).isEqualTo(LIMIT);
        assertThat(tool.operations()).containsExactly(Operation.FILE_READ);
        assertThat(tool.permissions()).containsExactly(Permission.READ);
        assertThat(tool.untrustedOutput()).isTrue();
        assertThat(tool.jsonSchema()).isEqualTo("{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\","
                + "\"description\":\"where\"},\"limit\":{\"type\":\"integer\",\"description\":\"how many\"}},"
                + "\"required\":[\"path\"],\"additionalProperties\":false}");
        assertThat(tool.argumentHint()).isEqualTo("a JSON object for peek_file like {\"path\": string (required), "
                + "\"limit\": integer (optional)} and no other keys");
        assertThat(tool.toString()).contains("peek_file").contains("path: string").contains("limit?: integer");

        ToolDescriptor bare = ToolDescriptor.builder().name("list_all").description("Lists.")
                .hints(ToolHints.of(true, false, true, false)).build();
        assertThat(bare.untrustedOutput()).isFalse();
        assertThat(bare.operations()).isEmpty();
        assertThat(bare.permissions()).isEmpty();
        assertThat(bare.jsonSchema()).isEqualTo("{\"type\":\"object\",\"properties\":{},\"required\":[],"
                + "\"additionalProperties\":false}");
        assertThat(bare.argumentHint()).isEqualTo("a JSON object for list_all like {} (no arguments)");
    }

    @Test
    void aDescriptorRefusesBadNamesAndTwiceDeclaredParameters() {
        assertThatThrownBy(() -> ToolDescriptor.builder().name("Read-File").description("x")
                .hints(ToolHints.of(true, false, true, false)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'Read-File'");
        assertThatThrownBy(() -> ToolDescriptor.builder().name("twice").description("x").parameter(PATH)
                .parameter(ToolParameter.optional("path", ParameterType.STRING, "again"))
                .hints(ToolHints.of(true, false, true, false)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'path' twice");
    }

    @Test
    void everyLimitIsSetAndMustBePositiveAndBelowTheIntegerRange() {
        OperationLimits limits = OperationLimits.builder().maxReadBytes(1).maxScanBytes(2).maxWriteBytes(3)
                .maxListEntries(4).maxTreeEntries(5).maxTreeDepth(6).maxFindResults(7).maxScanEntries(8)
                .maxSearchMatches(9).maxSearchFileBytes(10).searchTimeoutMillis(11).maxCopyBytes(12).build();

        assertThat(new long[] {limits.maxReadBytes(), limits.maxScanBytes(), limits.maxWriteBytes(),
                limits.maxListEntries(), limits.maxTreeEntries(), limits.maxTreeDepth(), limits.maxFindResults(),
                limits.maxScanEntries(), limits.maxSearchMatches(), limits.maxSearchFileBytes(),
                limits.searchTimeoutMillis(), limits.maxCopyBytes()})
                .containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
        assertThatThrownBy(() -> OperationLimits.builder().maxListEntries(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxListEntries");
        assertThatThrownBy(() -> OperationLimits.builder().maxTreeDepth(-1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OperationLimits.builder().maxReadBytes(Integer.MAX_VALUE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxReadBytes");
        assertThat(OperationLimits.builder().maxReadBytes(Integer.MAX_VALUE - 1).build().maxReadBytes())
                .isEqualTo(Integer.MAX_VALUE - 1);
        assertThat(OperationLimits.builder().maxScanBytes(Long.MAX_VALUE).maxCopyBytes(Long.MAX_VALUE)
                .searchTimeoutMillis(Integer.MAX_VALUE + 1L).build().maxScanBytes()).isEqualTo(Long.MAX_VALUE);
        assertThatThrownBy(() -> OperationLimits.builder().maxScanBytes(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxScanBytes");
    }
}
