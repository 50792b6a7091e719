package dev.mero.inbox;

import dev.mero.core.SecurityContext;
import dev.mero.core.approval.ApprovalStore;
import dev.mero.core.approval.StandingApproval;
import dev.mero.core.audit.AuditLog;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * Registers the approval inbox in a Spring Boot servlet application when {@code mero.inbox.enabled=true} and the
 * application has an {@link ApprovalStore} bean (and a {@link SecurityContext} bean, whose audit log records the
 * decisions unless an {@link AuditLog} bean is given).
 *
 * <p>Properties: {@code mero.inbox.path} (default {@value ApprovalInboxServlet#DEFAULT_PATH}),
 * {@code mero.inbox.contexts} (comma-separated context names; default all the store lists),
 * {@code mero.inbox.timeout} (the store's time-out, shown per request; default 5m),
 * {@code mero.inbox.role} (default {@code MERO_APPROVER}) and {@code mero.inbox.approver-header} (off unless
 * set). With Spring Security on the class path only authenticated users in the role are served (map the path
 * to authenticated users in the application's filter chain); without it the application must listen on loopback
 * ({@code server.address=127.0.0.1}) or the start fails. A {@link StandingApproval} bean enables standing rules.
 */
@AutoConfiguration
@ConditionalOnClass({ jakarta.servlet.Servlet.class, ServletRegistrationBean.class })
@ConditionalOnProperty(prefix = "mero.inbox", name = "enabled", havingValue = "true")
@ConditionalOnBean({ ApprovalStore.class, SecurityContext.class })
public class ApprovalInboxAutoConfiguration {

    /** The role an approver needs when Spring Security is present, unless {@code mero.inbox.role} names another. */
    public static final String DEFAULT_ROLE = "MERO_APPROVER";

    private static final String SPRING_SECURITY = "org.springframework.security.core.Authentication";

    /** Creates the auto-configuration; Spring calls it. */
    public ApprovalInboxAutoConfiguration() {
    }

    /**
     * The inbox servlet.
     *
     * @param store       the store the contexts' approval waits in
     * @param context     the security context, whose audit log records decisions by default
     * @param auditLogs   an audit log bean, if any
     * @param standing    a standing approval bean, if any
     * @param environment the properties
     * @param application the application, whose class loader tells whether Spring Security is present
     * @return the servlet
     * @throws IllegalStateException without Spring Security, when the server does not listen on loopback only
     */
    @Bean
    @ConditionalOnMissingBean
    public ApprovalInboxServlet meroApprovalInboxServlet(ApprovalStore store, SecurityContext context,
                                                         ObjectProvider<AuditLog> auditLogs,
                                                         ObjectProvider<StandingApproval> standing,
                                                         Environment environment,
                                                         ApplicationContext application) {
        ApprovalInboxServlet.Builder inbox = ApprovalInboxServlet.builder().store(store)
                .auditLog(auditLogs.getIfAvailable(context::auditLog))
                .timeout(environment.getProperty("mero.inbox.timeout", Duration.class, Duration.ofMinutes(5)));
        standing.ifAvailable(inbox::standingApproval);
        String contexts = environment.getProperty("mero.inbox.contexts", "");
        List<String> names = Arrays.stream(contexts.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
        inbox.contexts(names);
        String header = environment.getProperty("mero.inbox.approver-header");
        if (header != null && !header.isBlank()) {
            inbox.approverHeader(header.strip());
        }
        if (ClassUtils.isPresent(SPRING_SECURITY, application.getClassLoader())) {
            inbox.requiredRole(environment.getProperty("mero.inbox.role", DEFAULT_ROLE));
        } else if (header == null || header.isBlank()) {
            String address = environment.getProperty("server.address");
            if (address == null || !ApprovalInboxServlet.isLoopback(address.strip())) {
                throw new IllegalStateException("The approval inbox (mero.inbox.enabled=true) refuses to start: without "
                        + "Spring Security it is served on loopback only, but server.address is "
                        + (address == null ? "not set (all addresses)" : "'" + address + "'")
                        + ". Set server.address=127.0.0.1, or add Spring Security and give approvers the role "
                        + environment.getProperty("mero.inbox.role", DEFAULT_ROLE) + ".");
            }
        }
        return inbox.build();
    }

    /**
     * Maps the inbox to {@code mero.inbox.path}.
     *
     * @param servlet     the servlet
     * @param environment the properties
     * @return the registration
     */
    @Bean
    @ConditionalOnMissingBean(name = "meroApprovalInboxRegistration")
    public ServletRegistrationBean<ApprovalInboxServlet> meroApprovalInboxRegistration(ApprovalInboxServlet servlet,
                                                                                        Environment environment) {
        String path = environment.getProperty("mero.inbox.path", ApprovalInboxServlet.DEFAULT_PATH);
        if (!path.matches("(/[A-Za-z0-9._~-]+)+")) {
            throw new IllegalStateException("mero.inbox.path must be an absolute path such as "
                    + ApprovalInboxServlet.DEFAULT_PATH + ", got '" + path + "'");
        }
        ServletRegistrationBean<ApprovalInboxServlet> registration = new ServletRegistrationBean<>(servlet, path);
        registration.setName("meroApprovalInbox");
        return registration;
    }
}
