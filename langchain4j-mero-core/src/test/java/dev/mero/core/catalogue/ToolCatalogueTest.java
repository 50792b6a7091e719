package dev.mero.core.catalogue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mero.core.guard.Operation;
import dev.mero.core.Permission;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ToolCatalogueTest {

    private final ToolCatalogue catalogue = ToolCatalogue.standard();

    @Test
    void holdsEveryToolOfTheIssueInAFixedOrder() {
        assertThat(catalogue.tools()).extracting(ToolDescriptor::name).containsExactly(
                "read_file", "write_file", "append_file", "edit_file", "copy_file", "move_file", "delete_file",
                "file_info", "list_roots", "list_directory", "directory_tree", "create_directory",
                "delete_directory", "find_files", "search_text", "run_command", "sync_directory");
    }

    @Test
    void parameterNamesAndRequiredFlagsAreThePublicContract() {
        assertThat(signature("read_file")).isEqualTo("path:string,offset?:integer,limit?:integer");
        assertThat(signature("write_file")).isEqualTo("path:string,content:string");
        assertThat(signature("append_file")).isEqualTo("path:string,content:string");
        assertThat(signature("edit_file"))
                .isEqualTo("path:string,old_text:string,new_text:string,replace_all?:boolean,dry_run?:boolean");
        assertThat(signature("copy_file")).isEqualTo("source:string,destination:string");
        assertThat(signature("move_file")).isEqualTo("source:string,destination:string");
        assertThat(signature("delete_file")).isEqualTo("path:string");
        assertThat(signature("file_info")).isEqualTo("path:string");
        assertThat(signature("list_roots")).isEmpty();
        assertThat(signature("list_directory")).isEqualTo("path:string");
        assertThat(signature("directory_tree")).isEqualTo("path:string,max_depth?:integer");
        assertThat(signature("create_directory")).isEqualTo("path:string");
        assertThat(signature("delete_directory")).isEqualTo("path:string,recursive?:boolean");
        assertThat(signature("find_files")).isEqualTo("path:string,pattern:string");
        assertThat(signature("search_text")).isEqualTo("path:string,pattern:string,glob?:string");
        assertThat(signature("run_command"))
                .isEqualTo("command:string,working_directory?:string,timeout_seconds?:integer");
        assertThat(signature("sync_directory"))
                .isEqualTo("source:string,destination:string,delete_extraneous?:boolean,dry_run?:boolean");
    }

    @Test
    void descriptionsNameNoFixedMountAndPointToListRoots() {
        for (ToolDescriptor tool : catalogue.tools()) {
            assertThat(tool.description()).as(tool.name()).doesNotContain("/ws").isNotBlank();
            if (!tool.name().equals("list_roots")) {
                assertThat(tool.description()).as(tool.name()).contains("list_roots");
            }
            tool.parameters().forEach(p -> assertThat(p.description()).as(tool.name() + "." + p.name())
                    .isNotBlank().doesNotContain("/ws"));
        }
    }

    @Test
    void permissionsAndHintsFollowWhatEachToolDoes() {
        assertThat(tool("read_file").permissions()).containsExactly(Permission.READ);
        assertThat(tool("read_file").hints().readOnly()).isTrue();
        assertThat(tool("move_file").permissions())
                .containsExactly(Permission.READ, Permission.WRITE, Permission.DELETE);
        assertThat(tool("delete_file").hints().destructive()).isTrue();
        assertThat(tool("delete_file").operations()).containsExactly(Operation.FILE_DELETE);
        assertThat(tool("run_command").operations()).containsExactly(Operation.COMMAND_EXECUTE);
        assertThat(tool("create_directory").hints().idempotent()).isTrue();
        assertThat(tool("list_roots").permissions()).isEmpty();
        for (ToolDescriptor t : catalogue.tools()) {
            assertThat(t.hints().readOnly() && t.hints().destructive()).as(t.name()).isFalse();
            assertThat(t.hints().readOnly()).as(t.name())
                    .isEqualTo(t.permissions().stream().allMatch(p -> p == Permission.READ));
        }
        assertThat(tool("read_file").hints().asMetadata()).containsExactly(
                org.assertj.core.api.Assertions.entry("readOnlyHint", true),
                org.assertj.core.api.Assertions.entry("destructiveHint", false),
                org.assertj.core.api.Assertions.entry("idempotentHint", true),
                org.assertj.core.api.Assertions.entry("openWorldHint", false));
    }

    @Test
    void jsonSchemaDescribesTheParameters() throws Exception {
        JsonNode schema = new ObjectMapper().readTree(tool("edit_file").jsonSchema());
        assertThat(schema.get("type").asText()).isEqualTo("object");
        assertThat(schema.get("additionalProperties").asBoolean()).isFalse();
        assertThat(schema.get("properties").get("replace_all").get("type").asText()).isEqualTo("boolean");
        assertThat(schema.get("properties").get("old_text").get("description").asText())
                .isEqualTo(FileToolTexts.EDIT_FILE_OLD_TEXT);
        assertThat(schema.get("required")).extracting(JsonNode::asText)
                .containsExactly("path", "old_text", "new_text");
        JsonNode empty = new ObjectMapper().readTree(tool("list_roots").jsonSchema());
        assertThat(empty.get("required")).isEmpty();
    }

    @Test
    void findsByNameAndRefusesDuplicates() {
        assertThat(catalogue.find("nope")).isEmpty();
        assertThat(catalogue.find(null)).isEmpty();
        assertThatThrownBy(() -> ToolCatalogue.of(List.of(tool("read_file"), tool("read_file"))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ToolDescriptor.builder().name("Bad-Name").description("d")
                .hints(ToolHints.of(true, false, true, false)).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ToolParameter.required("Bad", ParameterType.STRING, "d"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private ToolDescriptor tool(String name) {
        return catalogue.find(name).orElseThrow();
    }

    private String signature(String name) {
        return tool(name).parameters().stream()
                .map(p -> p.name() + (p.required() ? "" : "?") + ":" + p.type().jsonType())
                .collect(Collectors.joining(","));
    }
}
