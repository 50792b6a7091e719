package dev.mero.core;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import com.tngtech.archunit.library.dependencies.SliceRule;
import dev.mero.core.command.CommandRunner;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.lang.conditions.ArchPredicates.is;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Architecture rules of the security core, checked on its compiled production classes: the core stays
 * framework-neutral, only the command runner starts processes (and never through a shell), public classes
 * are closed for extension, and every exception a tool can meet belongs to the {@link MeroToolsException}
 * hierarchy in {@code dev.mero.core}.
 */
class ArchitectureTest {

    private static final String CORE = "dev.mero.core..";

    /**
     * The one exception of {@code dev.mero.core} outside the hierarchy: a broken policy file is a configuration
     * error for the application's developer, not a decision for the model (see its Javadoc).
     */
    private static final List<Class<?>> DEVELOPER_EXCEPTIONS = List.of(InvalidPolicyException.class);

    /** What the JDK would run as a shell: {@code /bin/sh}, {@code /usr/bin/bash}, {@code sh -c}, ... */
    private static final Pattern SHELL_INVOCATION =
            Pattern.compile("(?<![\\w/.-])(/usr)?/bin/(ba|da|z|k)?sh(?![\\w.-])|(?<![\\w.-])(ba|da|z|k)?sh -c\\b");

    private static JavaClasses core;

    @BeforeAll
    static void importTheCore() {
        core = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.mero.core");
    }

    @Test
    void the_import_sees_the_core() {
        // guards every rule below against passing vacuously on an empty import
        assertThat(core.contain(SecurityContext.class)).isTrue();
        assertThat(core.contain(CommandRunner.class)).isTrue();
        assertThat(core.size()).isGreaterThan(80);
    }

    private static final ArchRule NO_AGENT_FRAMEWORK = noClasses().that().resideInAPackage(CORE)
            .should().dependOnClassesThat().resideInAnyPackage("dev.langchain4j..", "org.springframework..")
            .because("the core is framework-neutral; bindings live in their own modules");

    private static final ArchRule PROCESS_BUILDER_ONLY_IN_RUNNER = noClasses().that().resideInAPackage(CORE)
            .and().doNotBelongToAnyOf(CommandRunner.class)
            .and().doNotHaveFullyQualifiedName("dev.mero.core.command.BubblewrapProbe")
            .should().callConstructorWhere(target(owner(is(assignableTo(ProcessBuilder.class)))))
            .because("every process goes through CommandRunner's fixed environment, timeout and cleanup (the "
                    + "sandbox probe runs one fixed bwrap line with an empty environment and a timeout)");

    private static final ArchRule PROCESSES_ONLY_IN_COMMAND_PACKAGE = noClasses().that().resideInAPackage(CORE)
            .and().resideOutsideOfPackage("dev.mero.core.command")
            .should().dependOnClassesThat().areAssignableTo(ProcessBuilder.class)
            .orShould().dependOnClassesThat().areAssignableTo(Process.class)
            .because("processes are started and reaped by the command runner only");

    private static final ArchRule NO_RUNTIME_EXEC = noClasses().that().resideInAPackage(CORE)
            .should().callMethodWhere(target(owner(is(assignableTo(Runtime.class)))).and(target(name("exec"))))
            .because("Runtime.exec splits a string on whitespace; the runner takes a checked argument vector");

    // The constructor receives the checked argument vector; command(...) with arguments could swap the program.
    private static final ArchRule PROGRAM_NEVER_REPLACED = noClasses().that().resideInAPackage(CORE)
            .should().callMethodWhere(target(owner(is(assignableTo(ProcessBuilder.class))))
                    .and(target(name("command")))
                    .and(DescribedPredicate.describe("with arguments",
                            call -> !call.getTarget().getRawParameterTypes().isEmpty())))
            .because("the program the policy checked must be the program that runs");

    private static final ArchRule NO_SHELL_INVOCATION = noClasses().that().resideInAPackage(CORE)
            .should(nameAShellInvocation())
            .because("commands are never run by a shell");

    private static final ArchRule PUBLIC_CLASSES_FINAL = classes().that().resideInAPackage(CORE)
            .and().arePublic().and().areTopLevelClasses()
            .and().areNotInterfaces().and().areNotEnums().and().areNotRecords()
            .and().doNotHaveModifier(JavaModifier.ABSTRACT)
            .and().areNotAssignableTo(Throwable.class)
            .should().haveModifier(JavaModifier.FINAL)
            .because("the core's value types and services are not designed for subclassing");

    private static final ArchRule EXCEPTIONS_ARE_MERO_TOOLS_EXCEPTIONS = classes().that().resideInAPackage(CORE)
            .and().areAssignableTo(Throwable.class).and().arePublic()
            .and().doNotBelongToAnyOf(DEVELOPER_EXCEPTIONS.toArray(Class<?>[]::new))
            .should().beAssignableTo(MeroToolsException.class)
            .because("one catch (MeroToolsException e) at a tool's boundary covers every decision");

    private static final ArchRule HIERARCHY_IN_ROOT_PACKAGE = classes().that().areAssignableTo(MeroToolsException.class)
            .should().resideInAPackage("dev.mero.core")
            .andShould().bePublic()
            .because("users catch and map these by type; they belong next to SecurityContext");

    /**
     * The facade of the root package: the one part of {@code dev.mero.core} that sits above the other packages.
     * The rest of the root package is the seed's words (the exceptions, {@link Permission}, {@link PathEntry}),
     * which the specification fixes in the root package although every layer uses them.
     */
    private static final List<Class<?>> FACADE = List.of(SecurityContext.class, NarrowingBuilder.class);

    /**
     * The known cycle, frozen by name until it is broken: the protected paths compile their globs with the tools'
     * glob type in {@code dev.mero.core.ops}. A new dependency that closes a cycle breaks the rules below.
     */
    private static final List<String> FROZEN_CYCLE_EDGES = List.of(
            "dev.mero.core.path.ProtectedPaths -> dev.mero.core.ops.GlobPattern");

    /**
     * No cycles between the core's packages, the root package counting as one. Not counted: uses of the seed's
     * words in the root package (see {@link #FACADE}), which the specification keeps there although every layer
     * uses them, and the {@link #FROZEN_CYCLE_EDGES}; a cycle through the facade, or between two subpackages,
     * breaks the rule.
     */
    private static SliceRule NO_PACKAGE_CYCLES = packagesFreeOfCycles("dev.mero.core")
            .ignoreDependency(DescribedPredicate.alwaysTrue(), DescribedPredicate.describe(
                    "the seed's words in the root package (exceptions, Permission, PathEntry)",
                    target -> target.getPackageName().equals("dev.mero.core") && !isFacade(target)));

    static {
        for (String edge : FROZEN_CYCLE_EDGES) {
            String[] ends = edge.split(" -> ");
            NO_PACKAGE_CYCLES = NO_PACKAGE_CYCLES.ignoreDependency(
                    DescribedPredicate.describe(ends[0], origin -> topLevelName(origin).equals(ends[0])),
                    DescribedPredicate.describe(ends[1], target -> topLevelName(target).equals(ends[1])));
        }
    }

    /** The cycle rule over the packages below {@code base}, the root package {@code base} counting as a slice. */
    private static SliceRule packagesFreeOfCycles(String base) {
        return slices().assignedFrom(new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
                String name = javaClass.getPackageName();
                if (name.equals(base)) {
                    return SliceIdentifier.of("(root) " + base);
                }
                if (!name.startsWith(base + ".")) {
                    return SliceIdentifier.ignore();
                }
                String below = name.substring(base.length() + 1);
                int dot = below.indexOf('.');
                return SliceIdentifier.of(base + "." + (dot < 0 ? below : below.substring(0, dot)));
            }

            @Override
            public String getDescription() {
                return "the packages of " + base + ", its root package counting as one";
            }
        }).should().beFreeOfCycles();
    }

    private static boolean isFacade(JavaClass javaClass) {
        String name = topLevelName(javaClass);
        return FACADE.stream().anyMatch(type -> type.getName().equals(name));
    }

    /** The name of the top-level class a (nested, anonymous) class belongs to. */
    private static String topLevelName(JavaClass javaClass) {
        JavaClass outer = javaClass;
        while (outer.getEnclosingClass().isPresent()) {
            outer = outer.getEnclosingClass().get();
        }
        return outer.getName();
    }

    /**
     * The core's layers, from the top: the bindings (other modules, absent here), the operations (the tools, their
     * catalogue), the facade ({@link #FACADE} and the policy files that build it), the guard (every action's
     * governance: scope, rate limit, approval, audit, replay and their stores), the rules (paths, commands, scopes)
     * and the words (messages, error codes and the seed's words in the root package). A layer uses only the
     * layers below it.
     */
    private static final ArchRule LAYERS = layers("dev.mero.core");

    /** The layered rule over the packages of {@code base}, whose root package holds the facade. */
    private static ArchRule layers(String base) {
        String root = base + ".";
        return layeredArchitecture().consideringOnlyDependenciesInLayers().withOptionalLayers(true)
                .layer("bindings").definedBy("dev.mero.tools..", "dev.mero.springai..", "dev.mero.mcp..")
                .layer("operations").definedBy(root + "ops..", root + "catalogue..")
                .layer("facade").definedBy(DescribedPredicate.describe("the facade of " + base,
                        javaClass -> isFacadeOf(base, javaClass) || javaClass.getPackageName().startsWith(root + "policy")))
                .layer("guard").definedBy(root + "guard..", root + "approval..", root + "audit..", root + "limit..",
                        root + "replay..", root + "store..")
                .layer("rules").definedBy(root + "path..", root + "command..", root + "scope..")
                .layer("words").definedBy(DescribedPredicate.describe("the words of " + base,
                        javaClass -> javaClass.getPackageName().startsWith(root + "message")
                                || javaClass.getPackageName().startsWith(root + "error")
                                || javaClass.getPackageName().equals(base) && !isFacadeOf(base, javaClass)))
                .whereLayer("bindings").mayNotBeAccessedByAnyLayer()
                .whereLayer("operations").mayOnlyBeAccessedByLayers("bindings")
                .whereLayer("facade").mayOnlyBeAccessedByLayers("bindings", "operations")
                .whereLayer("guard").mayOnlyBeAccessedByLayers("bindings", "operations", "facade")
                .whereLayer("rules").mayOnlyBeAccessedByLayers("bindings", "operations", "facade", "guard")
                .ignoreDependency(DescribedPredicate.describe("a frozen edge's origin",
                                origin -> FROZEN_CYCLE_EDGES.stream().anyMatch(edge -> edge.startsWith(topLevelName(origin) + " -> "))),
                        DescribedPredicate.describe("a frozen edge's target",
                                target -> FROZEN_CYCLE_EDGES.stream().anyMatch(edge -> edge.endsWith(" -> " + topLevelName(target)))));
    }

    /**
     * Below the facade, nothing names {@code SecurityContext}: the rules and the guard receive what they decide
     * on, and only the operations (and the bindings above them) hold a context.
     */
    private static final ArchRule FACADE_NAMED_ONLY_FROM_ABOVE = facadeNamedOnlyFromAbove("dev.mero.core");

    private static ArchRule facadeNamedOnlyFromAbove(String base) {
        String root = base + ".";
        return noClasses().that().resideInAPackage(base + "..")
                .and().resideOutsideOfPackages(root + "ops..", root + "catalogue..", root + "policy..")
                .and(DescribedPredicate.describe("are not the facade", javaClass -> !isFacadeOf(base, javaClass)))
                .should().dependOnClassesThat().haveFullyQualifiedName(root + "SecurityContext")
                .because("the facade only delegates: no class below it calls back into it");
    }

    private static boolean isFacadeOf(String base, JavaClass javaClass) {
        String name = topLevelName(javaClass);
        return FACADE.stream().anyMatch(type -> name.equals(base + "." + type.getSimpleName()));
    }

    @Test
    void each_layer_uses_only_the_layers_below_it() {
        LAYERS.check(core);
    }

    @Test
    void no_class_below_the_facade_names_the_security_context() {
        FACADE_NAMED_ONLY_FROM_ABOVE.check(core);
    }

    @Test
    void the_core_packages_are_free_of_cycles() {
        NO_PACKAGE_CYCLES.check(core);
    }

    @Test
    void the_core_depends_on_no_agent_framework() {
        NO_AGENT_FRAMEWORK.check(core);
    }

    @Test
    void only_the_command_runner_creates_a_process_builder() {
        PROCESS_BUILDER_ONLY_IN_RUNNER.check(core);
    }

    @Test
    void processes_are_handled_only_in_the_command_package() {
        PROCESSES_ONLY_IN_COMMAND_PACKAGE.check(core);
    }

    @Test
    void nothing_calls_runtime_exec() {
        NO_RUNTIME_EXEC.check(core);
    }

    @Test
    void the_program_of_a_process_builder_is_never_replaced_after_construction() {
        PROGRAM_NEVER_REPLACED.check(core);
    }

    @Test
    void no_core_class_names_a_shell_invocation_in_its_constants() {
        NO_SHELL_INVOCATION.check(core);
    }

    @Test
    void public_top_level_classes_are_final_unless_made_for_extension() {
        PUBLIC_CLASSES_FINAL.check(core);
    }

    @Test
    void every_exception_of_the_core_is_a_mero_tools_exception() {
        EXCEPTIONS_ARE_MERO_TOOLS_EXCEPTIONS.check(core);
    }

    @Test
    void the_exception_hierarchy_lives_in_the_root_package() {
        HIERARCHY_IN_ROOT_PACKAGE.check(core);
    }

    @Test
    void the_developer_exceptions_stay_outside_the_model_facing_hierarchy() {
        assertThat(DEVELOPER_EXCEPTIONS).allSatisfy(type -> {
            assertThat(IllegalArgumentException.class.isAssignableFrom(type)).as(type.getName()).isTrue();
            assertThat(MeroToolsException.class.isAssignableFrom(type)).as(type.getName()).isFalse();
        });
    }

    @Test
    void the_shell_pattern_recognises_what_it_must() {
        assertThat(SHELL_INVOCATION.matcher("x\u0001/bin/sh\u0002").find()).isTrue();
        assertThat(SHELL_INVOCATION.matcher("/usr/bin/bash").find()).isTrue();
        assertThat(SHELL_INVOCATION.matcher("sh -c").find()).isTrue();
        assertThat(SHELL_INVOCATION.matcher("bash -c 'x'").find()).isTrue();
        assertThat(SHELL_INVOCATION.matcher("/bin/shred").find()).isFalse();
        assertThat(SHELL_INVOCATION.matcher("/usr/local/bin/shx").find()).isFalse();
        assertThat(SHELL_INVOCATION.matcher("fish -c").find()).isFalse();
        assertThat(SHELL_INVOCATION.matcher("sh").find()).isFalse();
    }

    /** Each rule fails on a class written to break it: none of them can pass vacuously. */
    @Test
    void every_rule_catches_a_class_that_breaks_it() {
        JavaClasses breaker = new ClassFileImporter().importPackages("dev.mero.core.archfixture");

        assertViolation(PROCESS_BUILDER_ONLY_IN_RUNNER, breaker, "RuleBreaker.shell()");
        assertViolation(PROCESSES_ONLY_IN_COMMAND_PACKAGE, breaker, "RuleBreaker.shell()");
        assertViolation(NO_RUNTIME_EXEC, breaker, "RuleBreaker.exec()");
        assertViolation(PROGRAM_NEVER_REPLACED, breaker, "RuleBreaker.swapProgram(java.lang.ProcessBuilder)");
        assertViolation(NO_SHELL_INVOCATION, breaker, "RuleBreaker names a shell invocation");
        assertViolation(PUBLIC_CLASSES_FINAL, breaker, "RuleBreaker");
        assertViolation(EXCEPTIONS_ARE_MERO_TOOLS_EXCEPTIONS, breaker, "RuleBreaker$UnrelatedFailure");
        assertViolation(HIERARCHY_IN_ROOT_PACKAGE, breaker, "RuleBreaker$StrayDenial");
        JavaClasses cycles = new ClassFileImporter().importPackages("dev.mero.core.archfixture.cycle");
        assertViolation(packagesFreeOfCycles("dev.mero.core.archfixture.cycle"), cycles, "Hub.spoke()");
        assertViolation(packagesFreeOfCycles("dev.mero.core.archfixture.cycle"), cycles, "Ping.pong()");
        JavaClasses layered = new ClassFileImporter().importPackages("dev.mero.core.archfixture.layers");
        assertViolation(layers("dev.mero.core.archfixture.layers"), layered, "Climber.callBack(");
        assertViolation(layers("dev.mero.core.archfixture.layers"), layered, "Climber.useATool()");
        assertViolation(facadeNamedOnlyFromAbove("dev.mero.core.archfixture.layers"), layered, "Climber.callBack(");
    }

    private static void assertViolation(ArchRule rule, JavaClasses classes, String culprit) {
        assertThatThrownBy(() -> rule.check(classes))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining(culprit);
    }

    private static DescribedPredicate<JavaClass> assignableTo(Class<?> type) {
        return DescribedPredicate.describe("assignable to " + type.getName(), javaClass -> javaClass.isAssignableTo(type));
    }

    private static ArchCondition<JavaClass> nameAShellInvocation() {
        return new ArchCondition<>("name a shell invocation such as /bin/sh or sh -c in a constant") {
            @Override
            public void check(JavaClass javaClass, ConditionEvents events) {
                String constants = classFileText(javaClass);
                boolean names = SHELL_INVOCATION.matcher(constants).find();
                events.add(new SimpleConditionEvent(javaClass, names,
                        javaClass.getName() + (names ? " names " : " does not name ") + "a shell invocation"));
            }
        };
    }

    /** The class file read as Latin-1, so that every string constant (ASCII here) appears as written. */
    private static String classFileText(JavaClass javaClass) {
        var source = javaClass.getSource().orElseThrow(
                () -> new AssertionError("no class file for " + javaClass.getName()));
        try (InputStream in = source.getUri().toURL().openStream()) {
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new AssertionError("cannot read the class file of " + javaClass.getName(), e);
        }
    }
}
