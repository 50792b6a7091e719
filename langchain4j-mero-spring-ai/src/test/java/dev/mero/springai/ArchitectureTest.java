package dev.mero.springai;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.mero.springai.testing.ScriptedSpringChatModel;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Architecture rules of the Spring AI binding: a thin adapter over the core's operations that decides and runs
 * nothing itself, needs only Spring AI's model API, and whose public classes are closed for extension.
 */
class ArchitectureTest {

    private static JavaClasses binding;

    @BeforeAll
    static void importTheBinding() {
        binding = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.mero.springai");
    }

    @Test
    void theImportSeesTheBinding() {
        assertThat(binding.contain(MeroToolCallbacks.class)).isTrue();
        assertThat(binding.contain(ScriptedSpringChatModel.class)).isTrue();
    }

    @Test
    void theTestDoubleShipsInItsOwnArtifactNotInTheBinding() {
        assertThat(ScriptedSpringChatModel.class.getProtectionDomain().getCodeSource().getLocation())
                .as("ScriptedSpringChatModel lives in langchain4j-mero-spring-ai-test")
                .isNotEqualTo(MeroToolCallbacks.class.getProtectionDomain().getCodeSource().getLocation());
    }

    @Test
    void everyCallGoesThroughTheCoresOperations() {
        noClasses().should().dependOnClassesThat().areAssignableTo(ProcessBuilder.class)
                .orShould().dependOnClassesThat().resideInAnyPackage("java.nio.file..", "java.io..")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("dev.mero.core.SecurityContext$Builder")
                .because("files and commands are reached through MeroOperations only")
                .check(binding);
    }

    @Test
    void itNeedsNoOtherFrameworkAndOnlySpringAisModelApi() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("dev.langchain4j..",
                        "org.springframework.ai.chat.client..", "org.springframework.ai.mcp..")
                .check(binding);
    }

    @Test
    void publicTopLevelClassesAreFinal() {
        classes().that().arePublic().and().areTopLevelClasses().and().areNotInterfaces().and().areNotEnums()
                .should().haveModifier(JavaModifier.FINAL)
                .check(binding);
    }
}
