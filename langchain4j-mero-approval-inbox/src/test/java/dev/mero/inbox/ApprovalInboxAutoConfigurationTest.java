package dev.mero.inbox;

import dev.mero.core.SecurityContext;
import dev.mero.core.approval.ApprovalStore;
import dev.mero.core.approval.PendingApprovals;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Principal;
import java.io.StringWriter;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ApprovalInboxAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ApprovalInboxAutoConfiguration.class));

    @Configuration(proxyBeanMethods = false)
    static class Application {

        @Bean
        SecurityContext securityContext() {
            return SecurityContext.builder().name("writer").build();
        }

        @Bean
        ApprovalStore approvalStore() {
            return PendingApprovals.create();
        }
    }

    @Test
    void registersTheInboxAtItsPathWhenEnabled() {
        runner.withUserConfiguration(Application.class)
                .withPropertyValues("mero.inbox.enabled=true", "mero.inbox.path=/ops/approvals")
                .run(context -> {
                    assertThat(context).hasSingleBean(ApprovalInboxServlet.class);
                    ServletRegistrationBean<?> registration = context.getBean(ServletRegistrationBean.class);
                    assertThat(registration.getUrlMappings()).containsExactly("/ops/approvals");
                });
    }

    @Test
    void doesNothingUnlessEnabledOrWithoutAStore() {
        runner.withUserConfiguration(Application.class)
                .run(context -> assertThat(context).doesNotHaveBean(ApprovalInboxServlet.class));
        runner.withPropertyValues("mero.inbox.enabled=true")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(ApprovalInboxServlet.class));
    }

    @Test
    void withSpringSecurityOnlyTheRoleIsServed() {
        runner.withUserConfiguration(Application.class).withPropertyValues("mero.inbox.enabled=true").run(context -> {
            ApprovalInboxServlet inbox = context.getBean(ApprovalInboxServlet.class);
            assertThat(inbox.authenticates()).isTrue();
            StringWriter body = new StringWriter();
            int[] status = new int[1];
            Principal erin = () -> "erin";
            inbox.service(Fakes.request("10.0.0.7", "10.0.0.1", Map.of("getUserPrincipal", erin)),
                    Fakes.response(body, status));
            assertThat(status[0]).isEqualTo(403);
            assertThat(body.toString()).contains("in role " + ApprovalInboxAutoConfiguration.DEFAULT_ROLE);
            inbox.service(Fakes.request("10.0.0.7", "10.0.0.1", Map.of("getUserPrincipal", erin,
                    "isUserInRole:" + ApprovalInboxAutoConfiguration.DEFAULT_ROLE, true)), Fakes.response(body, status));
            assertThat(status[0]).isEqualTo(200);
        });
    }

    @Test
    void withoutSpringSecurityTheApplicationMustListenOnLoopback() {
        ApplicationContextRunner noSecurity = runner.withUserConfiguration(Application.class)
                .withClassLoader(new FilteredClassLoader("org.springframework.security"))
                .withPropertyValues("mero.inbox.enabled=true");

        noSecurity.run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                .hasMessageContaining("refuses to start").hasMessageContaining("server.address is not set"));
        noSecurity.withPropertyValues("server.address=0.0.0.0").run(context -> assertThat(context).hasFailed()
                .getFailure().rootCause().hasMessageContaining("server.address is '0.0.0.0'"));
        noSecurity.withPropertyValues("server.address=127.0.0.1").run(context -> {
            assertThat(context).hasSingleBean(ApprovalInboxServlet.class);
            assertThat(context.getBean(ApprovalInboxServlet.class).authenticates()).isFalse();
        });
    }

    @Test
    void everyPropertyHasMetadataForTheIdeAndARowInTheDocs() throws Exception {
        String metadata;
        try (var in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            metadata = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        Path module = Path.of("").toAbsolutePath();
        Path root = Files.exists(module.resolve("docs")) ? module : module.getParent();
        String docs = Files.readString(root.resolve("docs/approval-inbox.md"));
        String source = Files.readString(root.resolve("langchain4j-mero-approval-inbox/src/main/java/dev/mero/inbox/"
                + "ApprovalInboxAutoConfiguration.java"));
        java.util.regex.Matcher read = java.util.regex.Pattern.compile("\"(mero\\.inbox\\.[a-z-]+)\"").matcher(source);
        java.util.Set<String> names = new java.util.TreeSet<>();
        while (read.find()) {
            names.add(read.group(1));
        }
        assertThat(names).contains("mero.inbox.path", "mero.inbox.role", "mero.inbox.approver-header");
        for (String name : names) {
            assertThat(metadata).as(name).contains("\"name\": \"" + name + "\"");
            assertThat(docs).as(name).contains("| `" + name + "` |");
        }
        assertThat(metadata).contains("\"name\": \"mero.inbox.enabled\"");
    }
}
