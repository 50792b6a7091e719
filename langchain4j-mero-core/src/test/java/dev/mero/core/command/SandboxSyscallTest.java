package dev.mero.core.command;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What a sandboxed program may ask of the kernel, tried from inside by {@code python3} through {@code ctypes}
 * (raw system calls, x86-64 numbers): it runs as nobody (uid and gid 65534) without any capability, with
 * {@code NoNewPrivs} and the seccomp filter in force, also when the tests run as root. Each call is made with
 * arguments for which the kernel alone would answer something else (success, {@code EFAULT}, {@code EINVAL},
 * {@code EBADF}, {@code ENOSPC}; checked by running the same probe in the same sandbox without the filter), so
 * {@code EPERM} proves the filter; the calls whose
 * capability check comes first are proven against the filter program itself in {@link SeccompFilterTest}.
 */
class SandboxSyscallTest {

    private static final String PYTHON = "/usr/bin/python3";

    private static final String PROBE = """
            import ctypes, os, socket
            libc = ctypes.CDLL(None, use_errno=True)
            libc.syscall.restype = ctypes.c_long
            def call(name, nr, *args):
                ctypes.set_errno(0)
                result = libc.syscall(ctypes.c_long(nr), *[ctypes.c_long(a) for a in args])
                print(name, 0 if result >= 0 else ctypes.get_errno())
            buf = ctypes.create_string_buffer(64)
            addr = ctypes.addressof(buf)
            call("ptrace", 101, 0, 0, 0, 0)                      # PTRACE_TRACEME: allowed by the kernel
            call("process_vm_readv", 310, os.getpid(), 0, 0, 0, 0, 0)
            call("mount", 165, 1, 1, 1, 0, 0)                    # bad pointers: EFAULT from the kernel
            call("umount2", 166, addr, 0x7fffffff)               # bad flags: EINVAL from the kernel
            call("unshare", 272, 0)                              # nothing to unshare: success
            call("unshare_user", 272, 0x10000000)                # user namespaces are off: ENOSPC
            call("setns", 308, -1, 0)                            # bad descriptor: EBADF
            call("clone_newuser", 56, 0x10000000 | 17, 0, 0, 0, 0)
            call("clone3", 435, 0, 0)
            call("keyctl", 250, 0, -3, 0)                        # KEYCTL_GET_KEYRING_ID of the session keyring
            call("add_key", 248, 1, 1, 0, 0, 0)                  # bad pointers: EFAULT
            call("request_key", 249, 1, 1, 0, 0)
            call("perf_event_open", 298, 0, 0, -1, -1, 0)        # NULL attributes: EFAULT
            call("userfaultfd", 323, 1)                          # UFFD_USER_MODE_ONLY: allowed to anyone
            call("io_uring_setup", 425, 0, 0)                    # NULL parameters: EFAULT
            def family(name, value):
                try:
                    socket.socket(value, socket.SOCK_DGRAM if value != socket.AF_NETLINK else socket.SOCK_RAW).close()
                    print(name, 0)
                except OSError as e:
                    print(name, e.errno)
            family("af_unix", socket.AF_UNIX)
            family("af_inet", socket.AF_INET)
            family("af_inet6", socket.AF_INET6)
            family("af_netlink", socket.AF_NETLINK)
            pid = os.fork()
            if pid == 0:
                os._exit(7)
            print("fork", os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) - 7)
            """;

    private static final int EPERM = 1;
    private static final int ENOSYS = 38;
    private static final int EAFNOSUPPORT = 97;

    @TempDir
    Path dir;

    private final CommandRunner runner = CommandRunner.builder().build();

    @BeforeEach
    void setUp() {
        assumeTrue(Files.isExecutable(Path.of(PYTHON)), "python3 makes the system calls");
    }

    @Test
    void the_program_runs_as_nobody_without_capabilities_with_no_new_privileges_and_the_filter() {
        CommandResult result = run(CommandSandbox.required(), List.of(PYTHON, "-c",
                "import os; print(os.getuid(), os.getgid(), os.getgroups()); print(open('/proc/self/status').read())"));

        assertThat(result.succeeded()).as(result.toModelText()).isTrue();
        String out = result.stdout();
        assertThat(out).startsWith("65534 65534 []\n");
        assertThat(out).containsPattern("CapInh:\\s+0+\n").containsPattern("CapPrm:\\s+0+\n")
                .containsPattern("CapEff:\\s+0+\n").containsPattern("CapBnd:\\s+0+\n")
                .containsPattern("CapAmb:\\s+0+\n");
        assertThat(out).containsPattern("NoNewPrivs:\\s+1\n").containsPattern("Seccomp:\\s+2\n");
    }

    @Test
    void the_filter_denies_each_call_agent_tools_never_need() {
        assumeTrue(System.getProperty("os.arch").equals("amd64"), "the probe uses x86-64 system call numbers");
        Map<String, Integer> answers = probe(CommandSandbox.required());

        for (String denied : List.of("ptrace", "process_vm_readv", "mount", "umount2", "unshare", "unshare_user",
                "setns", "clone_newuser", "keyctl", "add_key", "request_key", "perf_event_open", "userfaultfd",
                "io_uring_setup")) {
            assertThat(answers).as(denied).containsEntry(denied, EPERM);
        }
        assertThat(answers).containsEntry("clone3", ENOSYS);
        assertThat(answers).containsEntry("af_unix", 0).containsEntry("af_inet", EAFNOSUPPORT)
                .containsEntry("af_inet6", EAFNOSUPPORT).containsEntry("af_netlink", EAFNOSUPPORT);
        // an ordinary fork still works
        assertThat(answers).containsEntry("fork", 0);
    }

    @Test
    void with_network_the_internet_families_are_allowed_and_the_rest_stays_denied() {
        assumeTrue(System.getProperty("os.arch").equals("amd64"), "the probe uses x86-64 system call numbers");
        Map<String, Integer> answers = probe(CommandSandbox.builder().network(true).build());

        assertThat(answers).containsEntry("af_unix", 0).containsEntry("af_inet", 0).containsEntry("af_netlink", 0);
        assertThat(answers).containsEntry("ptrace", EPERM).containsEntry("clone_newuser", EPERM);
    }

    @Test
    void the_unshare_and_mount_programs_fail_inside() {
        CommandResult unshare = run(CommandSandbox.required(), List.of("/usr/bin/unshare", "-U", "/bin/true"));
        CommandResult mount = run(CommandSandbox.required(), List.of("/usr/bin/mount", "-t", "tmpfs", "none",
                "/tmp"));

        assertThat(unshare.succeeded()).isFalse();
        assertThat(unshare.stderr()).contains("Operation not permitted");
        assertThat(mount.succeeded()).isFalse();
    }

    private Map<String, Integer> probe(CommandSandbox sandbox) {
        CommandResult result = run(sandbox, List.of(PYTHON, "-c", PROBE));
        assertThat(result.succeeded()).as(result.toModelText()).isTrue();
        Map<String, Integer> answers = new LinkedHashMap<>();
        for (String line : result.stdout().split("\n")) {
            String[] fields = line.split(" ");
            answers.put(fields[0], Integer.parseInt(fields[1]));
        }
        return answers;
    }

    private CommandResult run(CommandSandbox sandbox, List<String> argv) {
        return runner.runInSandbox(sandbox, SandboxView.directory(dir), dir.toString(), argv, Duration.ofSeconds(60));
    }
}
