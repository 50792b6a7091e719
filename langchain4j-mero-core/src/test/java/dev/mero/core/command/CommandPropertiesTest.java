package dev.mero.core.command;

import dev.mero.core.CommandDeniedException;
import dev.mero.core.MeroToolsException;
import dev.mero.core.message.Messages;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.CharRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.statistics.StatisticsReport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CommandPropertiesTest {

    private static Path root;
    private static SecurityContext context;

    @BeforeContainer
    static void createWorkspace() throws IOException {
        root = Files.createTempDirectory("mero-command-properties").toRealPath();
        Path ws = Files.createDirectories(root.resolve("ws"));
        Files.writeString(ws.resolve("notes.txt"), "notes");
        context = SecurityContext.builder().name("worker_1")
                .path(PathEntry.of(ws.toString(), "ws", Permission.READ, Permission.WRITE, Permission.EXECUTE))
                .allowCommand("ls").allowCommand("cat").allowCommand("git status").allowCommand("grep")
                .allowCommand("/usr/bin/wc").allowCommand("sort").allowCommand("timeout 5")
                .denyCommand("grep -r").build();
    }

    @AfterContainer
    static void deleteWorkspace() throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.deleteIfExists(file);
            }
        }
    }

    @Provide
    Arbitrary<Character> metacharacters() {
        return Arbitraries.of(';', '&', '|', '<', '>', '(', ')', '{', '}', '`', '$', '*', '?', '[', '!', '\n', '\r');
    }

    @Property(tries = 300, seed = "20261201")
    void an_unquoted_shell_metacharacter_is_always_refused(
            @ForAll @StringLength(max = 8) @CharRange(from = 'a', to = 'z') String before,
            @ForAll("metacharacters") char meta,
            @ForAll @StringLength(max = 8) @CharRange(from = 'a', to = 'z') String after) {
        String line = "ls " + before + meta + after;
        assertThatThrownBy(() -> CommandLineParser.parse(line))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessageStartingWith("Command " + Messages.quote(line) + " contains ");
    }

    @Property(tries = 300, seed = "20261201")
    void single_quoting_any_printable_arguments_round_trips(
            @ForAll @Size(min = 1, max = 6) List<@StringLength(max = 12) @CharRange(from = ' ', to = '~') String> args) {
        String line = "echo " + args.stream().map(CommandPropertiesTest::singleQuoted).collect(Collectors.joining(" "));
        List<String> argv = CommandLineParser.parse(line);
        assertThat(argv.subList(1, argv.size())).isEqualTo(args);
    }

    @Provide
    Arbitrary<String> lines() {
        Arbitrary<String> programs = Arbitraries.of("ls", "cat", "git", "grep", "sort", "timeout", "env", "sh", "./ls",
                "/usr/bin/ls", "/usr/bin/wc", "wc", "../cat", "xargs", "find", "rm");
        Arbitrary<String> words = Arbitraries.of("status", "-r", "-l", "5", "ls", "env", "sh", "-c", "notes.txt",
                "/etc/passwd", "../x", "sub/../notes.txt", "'a b'", "--output=x", "-o", "x", "'*'", "--", "-rf",
                "--compress-program=id", "git", "grep", "'|'", "\"$(id)\"", "\\;", "FOO=1");
        return programs.flatMap(p -> words.list().ofMaxSize(5).map(ws -> (p + " " + String.join(" ", ws)).strip()));
    }

    @Property(tries = 1000, seed = "20261201")
    @StatisticsReport(StatisticsReport.StatisticsReportMode.OFF) // the coverage check below fails the property when it matters
    void an_accepted_command_is_allowed_not_denied_and_found_on_the_search_path(@ForAll("lines") String line) {
        CheckedCommand command;
        try {
            command = context.checkCommand(line, "/ws");
        } catch (MeroToolsException e) {
            Statistics.collect("refused");
            assertThat(e.getMessage()).isNotBlank();
            return;
        }
        Statistics.collect("accepted");
        List<String> argv = command.argv();
        assertThat(command.allowRule().isPrefixOf(argv)).isTrue();
        for (CommandRule deny : context.commandPolicy().denyRules()) {
            assertThat(deny.blocks(argv, 0, Set.of(command.programName()))).isFalse();
        }
        if (command.program().startsWith("/")) {
            assertThat(command.allowRule().program()).isEqualTo(command.program());
        } else {
            assertThat(command.executable().getParent().toString()).isIn("/usr/local/bin", "/usr/bin", "/bin");
        }
        assertThat(Files.isExecutable(command.executable())).isTrue();
        assertThat(command.realExecutable().startsWith(root)).isFalse();
        assertThat(argv).noneMatch(a -> a.equals("/etc/passwd") || a.equals("../x"));
        Statistics.coverage(coverage -> coverage.check("accepted").percentage(p -> p > 1));
    }

    private static String singleQuoted(String value) {
        return "'" + value.replace("'", "'\\''") + "'";
    }
}
