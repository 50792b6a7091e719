package dev.mero.tools;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.mero.tools.testing.ScriptedChatModel;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Architecture rules of the LangChain4j binding: it decides nothing and runs nothing itself (every action goes
 * through the core's {@code SecurityContext}), and its public classes are closed for extension.
 */
class ArchitectureTest {

    private static JavaClasses tools;

    @BeforeAll
    static void importTheBinding() {
        tools = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.mero.tools");
    }

    @Test
    void the_import_sees_the_binding() {
        assertThat(tools.contain(FileTools.class)).isTrue();
        assertThat(tools.contain(ScriptedChatModel.class)).isTrue();
    }

    @Test
    void the_test_double_ships_in_its_own_artifact_not_in_the_binding() {
        assertThat(ScriptedChatModel.class.getProtectionDomain().getCodeSource().getLocation())
                .as("ScriptedChatModel lives in langchain4j-mero-tools-test")
                .isNotEqualTo(FileTools.class.getProtectionDomain().getCodeSource().getLocation());
    }

    @Test
    void the_binding_never_starts_a_process_itself() {
        noClasses().should().dependOnClassesThat().areAssignableTo(ProcessBuilder.class)
                .orShould().dependOnClassesThat().areAssignableTo(Runtime.class)
                .because("commands run through SecurityContext.runCommand and its CommandRunner only")
                .check(tools);
    }

    @Test
    void the_binding_depends_on_no_other_agent_framework() {
        noClasses().should().dependOnClassesThat().resideInAPackage("org.springframework..").check(tools);
    }

    @Test
    void public_top_level_classes_are_final() {
        classes().that().arePublic().and().areTopLevelClasses().and().areNotInterfaces().and().areNotEnums()
                .and().doNotHaveModifier(JavaModifier.ABSTRACT)
                .should().haveModifier(JavaModifier.FINAL)
                .check(tools);
    }
}
