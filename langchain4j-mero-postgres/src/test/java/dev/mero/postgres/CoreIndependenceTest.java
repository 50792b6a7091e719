package dev.mero.postgres;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import dev.mero.core.SecurityContext;
import dev.mero.core.store.PolicyStore;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/** The core knows only its store interfaces: no JDBC, no driver, no pool, nothing of this module. */
class CoreIndependenceTest {

    @Test
    void theCoreDependsOnNoDatabaseLibrary() {
        JavaClasses core = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.mero.core");
        assertThat(core.contain(SecurityContext.class) && core.contain(PolicyStore.class)).isTrue();

        ArchRule rule = noClasses().that().resideInAPackage("dev.mero.core..")
                .should().dependOnClassesThat().resideInAnyPackage("java.sql..", "javax.sql..", "org.postgresql..",
                        "com.zaxxer..", "dev.mero.postgres..")
                .because("shared stores plug into the core through dev.mero.core.store; the core stays small");
        rule.check(core);
    }
}
