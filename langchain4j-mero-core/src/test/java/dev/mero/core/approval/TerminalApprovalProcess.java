package dev.mero.core.approval;

import dev.mero.core.ApprovalTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A child JVM that asks {@link ConsoleApproval#create()}-style questions on its real terminal and prints
 * each decision, for {@link ConsoleApprovalTerminalTest} to drive through a pseudo-terminal.
 */
final class TerminalApprovalProcess {

    private TerminalApprovalProcess() {
    }

    /**
     * Asks as many questions as the first argument says, each with the timeout in seconds the second gives.
     *
     * @param args the number of questions and the timeout in seconds
     * @throws Exception if a question cannot be asked
     */
    public static void main(String[] args) throws Exception {
        int questions = Integer.parseInt(args[0]);
        ConsoleApproval console = ConsoleApproval.builder()
                .timeout(Duration.ofSeconds(Long.parseLong(args[1]))).build();
        for (int i = 1; i <= questions; i++) {
            String decision;
            try {
                decision = console.decide(Requests.write("/ws/file-" + i + ".txt")).name();
            } catch (ApprovalTimeoutException e) {
                decision = "TIMED_OUT";
            }
            System.out.println();
            System.out.println("DECISION " + i + ": " + decision);
            System.out.flush();
        }
    }

    /** The command line that starts this class in a child JVM with the test's class path. */
    static List<String> javaCommand(String... args) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto", "-Xmx64m",
                "-cp", System.getProperty("java.class.path"), TerminalApprovalProcess.class.getName()));
        command.addAll(List.of(args));
        return command;
    }
}
