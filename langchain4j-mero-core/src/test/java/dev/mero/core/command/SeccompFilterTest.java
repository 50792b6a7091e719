package dev.mero.core.command;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seccomp program, run by a classic-BPF interpreter of the test's own against {@code struct seccomp_data}
 * for every system call the filter must refuse, on both architectures it supports, with the numbers taken
 * from the kernel's tables. This proves the calls whose capability check the kernel makes first (so that the
 * kernel's own answer is {@code EPERM} too, see {@link SandboxSyscallTest}).
 */
class SeccompFilterTest {

    private static final int AUDIT_X86_64 = 0xC000003E;
    private static final int AUDIT_AARCH64 = 0xC00000B7;
    private static final int KILL = 0x80000000;
    private static final int ALLOW = 0x7fff0000;
    private static final int EPERM = 0x00050000 | 1;
    private static final int ENOSYS = 0x00050000 | 38;
    private static final int EAFNOSUPPORT = 0x00050000 | 97;

    private static final Map<String, Integer> X86_64_DENIED = Map.ofEntries(
            Map.entry("ptrace", 101), Map.entry("process_vm_readv", 310), Map.entry("process_vm_writev", 311),
            Map.entry("mount", 165), Map.entry("umount2", 166), Map.entry("pivot_root", 155),
            Map.entry("open_tree", 428), Map.entry("move_mount", 429), Map.entry("fsopen", 430),
            Map.entry("fsconfig", 431), Map.entry("fsmount", 432), Map.entry("fspick", 433),
            Map.entry("mount_setattr", 442), Map.entry("unshare", 272), Map.entry("setns", 308),
            Map.entry("add_key", 248), Map.entry("request_key", 249), Map.entry("keyctl", 250),
            Map.entry("bpf", 321), Map.entry("perf_event_open", 298), Map.entry("userfaultfd", 323),
            Map.entry("io_uring_setup", 425), Map.entry("io_uring_enter", 426), Map.entry("io_uring_register", 427),
            Map.entry("kexec_load", 246), Map.entry("kexec_file_load", 320), Map.entry("init_module", 175),
            Map.entry("finit_module", 313), Map.entry("delete_module", 176), Map.entry("reboot", 169),
            Map.entry("swapon", 167), Map.entry("swapoff", 168), Map.entry("acct", 163));

    private static final Map<String, Integer> AARCH64_DENIED = Map.ofEntries(
            Map.entry("ptrace", 117), Map.entry("process_vm_readv", 270), Map.entry("process_vm_writev", 271),
            Map.entry("mount", 40), Map.entry("umount2", 39), Map.entry("pivot_root", 41),
            Map.entry("open_tree", 428), Map.entry("mount_setattr", 442), Map.entry("unshare", 97),
            Map.entry("setns", 268), Map.entry("add_key", 217), Map.entry("request_key", 218),
            Map.entry("keyctl", 219), Map.entry("bpf", 280), Map.entry("perf_event_open", 241),
            Map.entry("userfaultfd", 282), Map.entry("io_uring_setup", 425), Map.entry("kexec_load", 104),
            Map.entry("kexec_file_load", 294), Map.entry("init_module", 105), Map.entry("finit_module", 273),
            Map.entry("delete_module", 106), Map.entry("reboot", 142), Map.entry("swapon", 224),
            Map.entry("swapoff", 225), Map.entry("acct", 89));

    @Test
    void every_listed_call_is_refused_with_eperm_on_both_architectures_with_and_without_network() {
        for (boolean network : new boolean[] {false, true}) {
            assertDenied(SeccompFilter.program("amd64", network).orElseThrow(), AUDIT_X86_64, X86_64_DENIED);
            assertDenied(SeccompFilter.program("aarch64", network).orElseThrow(), AUDIT_AARCH64, AARCH64_DENIED);
        }
    }

    private static void assertDenied(byte[] filter, int arch, Map<String, Integer> denied) {
        denied.forEach((name, nr) -> assertThat(run(filter, arch, nr, 0)).as(name).isEqualTo(EPERM));
    }

    @Test
    void ordinary_calls_are_allowed() {
        byte[] filter = SeccompFilter.program("amd64", false).orElseThrow();
        for (int nr : new int[] {0, 1, 2, 3, 9, 57, 59, 60, 61, 231, 257}) { // read ... openat
            assertThat(run(filter, AUDIT_X86_64, nr, 0)).as("syscall " + nr).isEqualTo(ALLOW);
        }
        byte[] arm = SeccompFilter.program("aarch64", false).orElseThrow();
        assertThat(run(arm, AUDIT_AARCH64, 63, 0)).isEqualTo(ALLOW); // read
    }

    @Test
    void clone_is_refused_only_with_a_namespace_flag_and_clone3_falls_back() {
        byte[] filter = SeccompFilter.program("amd64", false).orElseThrow();
        assertThat(run(filter, AUDIT_X86_64, 56, 0x01200011)).isEqualTo(ALLOW); // fork's flags
        assertThat(run(filter, AUDIT_X86_64, 56, 0x003d0f00)).isEqualTo(ALLOW); // pthread_create's flags
        for (int flag : new int[] {0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x10000000, 0x20000000,
                0x40000000}) {
            assertThat(run(filter, AUDIT_X86_64, 56, flag | 17)).as("flag %x", flag).isEqualTo(EPERM);
        }
        assertThat(run(filter, AUDIT_X86_64, 435, 0)).isEqualTo(ENOSYS);
        byte[] arm = SeccompFilter.program("aarch64", false).orElseThrow();
        assertThat(run(arm, AUDIT_AARCH64, 220, 0x10000000)).isEqualTo(EPERM);
        assertThat(run(arm, AUDIT_AARCH64, 220, 17)).isEqualTo(ALLOW);
    }

    @Test
    void sockets_are_unix_only_without_network_and_internet_with_it() {
        byte[] closed = SeccompFilter.program("amd64", false).orElseThrow();
        byte[] open = SeccompFilter.program("amd64", true).orElseThrow();
        assertThat(run(closed, AUDIT_X86_64, 41, 1)).isEqualTo(ALLOW);
        for (int family : new int[] {2, 10, 16, 17, 0, 40}) { // inet, inet6, netlink, packet, unspec, vsock
            assertThat(run(closed, AUDIT_X86_64, 41, family)).as("family " + family).isEqualTo(EAFNOSUPPORT);
        }
        for (int family : new int[] {1, 2, 10, 16}) {
            assertThat(run(open, AUDIT_X86_64, 41, family)).as("family " + family).isEqualTo(ALLOW);
        }
        assertThat(run(open, AUDIT_X86_64, 41, 17)).isEqualTo(EAFNOSUPPORT);
    }

    @Test
    void another_architecture_or_the_x32_abi_is_killed() {
        byte[] filter = SeccompFilter.program("amd64", false).orElseThrow();
        assertThat(run(filter, 0x40000003, 0, 0)).isEqualTo(KILL); // i386
        assertThat(run(filter, AUDIT_X86_64, 0x40000000 | 1, 0)).isEqualTo(KILL);
        assertThat(run(SeccompFilter.program("aarch64", false).orElseThrow(), AUDIT_X86_64, 0, 0)).isEqualTo(KILL);
        assertThat(SeccompFilter.program("riscv64", false)).isEmpty();
    }

    @Test
    void the_filter_file_holds_the_program_of_this_machine() throws Exception {
        java.nio.file.Path file = SeccompFilter.file(false).orElseThrow();
        assertThat(java.nio.file.Files.readAllBytes(file)).isEqualTo(SeccompFilter.program(false).orElseThrow());
        assertThat(SeccompFilter.file(false)).contains(file);
        assertThat(SeccompFilter.file(true)).isNotEqualTo(SeccompFilter.file(false));
        for (boolean network : new boolean[] {false, true}) {
            java.nio.file.Path written = SeccompFilter.write(network).orElseThrow();
            try {
                assertThat(written.getFileName()).hasToString(network ? "network.bpf" : "no-network.bpf");
                assertThat(java.nio.file.Files.readAllBytes(written))
                        .isEqualTo(SeccompFilter.program(network).orElseThrow());
                assertThat(java.nio.file.Files.getPosixFilePermissions(written.getParent()))
                        .containsExactlyInAnyOrder(java.nio.file.attribute.PosixFilePermission.OWNER_READ,
                                java.nio.file.attribute.PosixFilePermission.OWNER_WRITE,
                                java.nio.file.attribute.PosixFilePermission.OWNER_EXECUTE);
            } finally {
                java.nio.file.Files.delete(written);
                java.nio.file.Files.delete(written.getParent());
            }
        }
    }

    /** Runs a classic BPF program over {@code struct seccomp_data} (nr, arch, ip, args) and returns its verdict. */
    private static int run(byte[] program, int arch, int nr, long arg0) {
        ByteBuffer data = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        data.putInt(0, nr).putInt(4, arch).putLong(16, arg0);
        ByteBuffer code = ByteBuffer.wrap(program).order(ByteOrder.nativeOrder());
        int accumulator = 0;
        int pc = 0;
        for (int steps = 0; steps < 10_000; steps++) {
            int base = pc * 8;
            int op = code.getShort(base) & 0xffff;
            int jt = code.get(base + 2) & 0xff;
            int jf = code.get(base + 3) & 0xff;
            int k = code.getInt(base + 4);
            switch (op) {
                case 0x20 -> accumulator = data.getInt(k);
                case 0x15 -> pc += accumulator == k ? jt : jf;
                case 0x35 -> pc += Integer.compareUnsigned(accumulator, k) >= 0 ? jt : jf;
                case 0x45 -> pc += (accumulator & k) != 0 ? jt : jf;
                case 0x06 -> {
                    return k;
                }
                default -> throw new AssertionError("unexpected opcode " + op);
            }
            pc++;
        }
        throw new AssertionError("the program did not return");
    }
}
