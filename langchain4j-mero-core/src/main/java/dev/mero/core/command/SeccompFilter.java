package dev.mero.core.command;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The seccomp filter of a sandboxed run, as the classic BPF program {@code bwrap --seccomp} loads before it
 * starts the command. It denies, with {@code EPERM}, what agent tools never need and what kernel exploits
 * from user namespaces start with: {@code ptrace} and cross-process memory access, every mount call,
 * {@code unshare}, {@code setns} and {@code clone} with namespace flags, the key ring, {@code bpf},
 * {@code perf_event_open}, {@code userfaultfd}, {@code io_uring}, {@code kexec_*}, module loading,
 * {@code reboot}, swap and process accounting. {@code clone3}, whose flags a filter cannot read, fails with
 * {@code ENOSYS}, so C libraries fall back to {@code clone}. {@code socket} accepts {@code AF_UNIX} only
 * without network, and also {@code AF_INET}, {@code AF_INET6} and {@code AF_NETLINK} with it; other
 * families fail with {@code EAFNOSUPPORT}. A system call of another architecture (a 32-bit one on x86-64, or
 * the x32 ABI) kills the process.
 *
 * <p>Supported on x86-64 and AArch64; elsewhere {@link #program(boolean)} is empty. {@code bwrap} reads the
 * filter from a file descriptor: {@code flock --no-fork} (util-linux) opens the filter's file as descriptor 3
 * and executes {@code bwrap ... --seccomp 3}, so the command's standard input stays the runner's.
 */
final class SeccompFilter {

    private static final int EPERM = 1;
    private static final int ENOSYS = 38;
    private static final int EAFNOSUPPORT = 97;
    private static final int AF_UNIX = 1;
    private static final int AF_INET = 2;
    private static final int AF_INET6 = 10;
    private static final int AF_NETLINK = 16;
    /** CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID and NEWNET. */
    static final int NAMESPACE_FLAGS = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000
            | 0x20000000 | 0x40000000;
    private static final int X32_SYSCALL_BIT = 0x40000000;

    private static final int RET_KILL_PROCESS = 0x80000000;
    private static final int RET_ERRNO = 0x00050000;
    private static final int RET_ALLOW = 0x7fff0000;

    private static final short LD_W_ABS = 0x20;
    private static final short JEQ_K = 0x15;
    private static final short JGE_K = 0x35;
    private static final short JSET_K = 0x45;
    private static final short RET_K = 0x06;

    private static final int OFFSET_NR = 0;
    private static final int OFFSET_ARCH = 4;
    private static final int OFFSET_ARG0 = 16; // low half on little-endian machines

    /** System call numbers of one architecture. */
    private record Architecture(int auditArch, boolean x32Bit, int cloneCall, int clone3, int socket,
                                List<Integer> denied) {
    }

    private static final Architecture X86_64 = new Architecture(0xC000003E, true, 56, 435, 41, List.of(
            101, // ptrace
            310, 311, // process_vm_readv, process_vm_writev
            165, 166, 155, // mount, umount2, pivot_root
            428, 429, 430, 431, 432, 433, 442, // open_tree, move_mount, fsopen, fsconfig, fsmount, fspick, mount_setattr
            272, 308, // unshare, setns
            248, 249, 250, // add_key, request_key, keyctl
            321, 298, 323, // bpf, perf_event_open, userfaultfd
            425, 426, 427, // io_uring_setup, io_uring_enter, io_uring_register
            246, 320, // kexec_load, kexec_file_load
            175, 313, 176, // init_module, finit_module, delete_module
            169, 167, 168, 163)); // reboot, swapon, swapoff, acct

    private static final Architecture AARCH64 = new Architecture(0xC00000B7, false, 220, 435, 198, List.of(
            117, // ptrace
            270, 271, // process_vm_readv, process_vm_writev
            40, 39, 41, // mount, umount2, pivot_root
            428, 429, 430, 431, 432, 433, 442,
            97, 268, // unshare, setns
            217, 218, 219, // add_key, request_key, keyctl
            280, 241, 282, // bpf, perf_event_open, userfaultfd
            425, 426, 427,
            104, 294, // kexec_load, kexec_file_load
            105, 273, 106, // init_module, finit_module, delete_module
            142, 224, 225, 89)); // reboot, swapon, swapoff, acct

    private static final Map<String, Architecture> BY_OS_ARCH = Map.of("amd64", X86_64, "x86_64", X86_64,
            "aarch64", AARCH64);

    private static final Map<Boolean, Optional<Path>> FILES = new ConcurrentHashMap<>();

    private SeccompFilter() {
    }

    /**
     * The filter for this JVM's architecture in a file of its own, written once per JVM into a private temporary
     * directory (removed when the JVM exits), for a launcher to open for {@code bwrap}.
     *
     * @param network whether the run shares the host's network
     * @return the file, or empty on an unknown architecture or when it cannot be written
     */
    static Optional<Path> file(boolean network) {
        return FILES.computeIfAbsent(network, SeccompFilter::write);
    }

    /** Writes the filter into a new private temporary directory, both removed when the JVM exits. */
    static Optional<Path> write(boolean network) {
        Optional<byte[]> program = program(network);
        if (program.isEmpty()) {
            return Optional.empty();
        }
        try {
            Path directory = Files.createTempDirectory("mero-seccomp-");
            Path file = directory.resolve(network ? "network.bpf" : "no-network.bpf");
            Files.write(file, program.get());
            directory.toFile().deleteOnExit();
            file.toFile().deleteOnExit(); // runs first: files registered later are deleted first
            return Optional.of(file);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * The filter for this JVM's architecture.
     *
     * @param network whether the run shares the host's network
     * @return the program's bytes, or empty on an architecture this class does not know
     */
    static Optional<byte[]> program(boolean network) {
        return program(System.getProperty("os.arch"), network);
    }

    /** The filter for an architecture as Java names it ({@code amd64}, {@code aarch64}). */
    static Optional<byte[]> program(String osArch, boolean network) {
        Architecture architecture = BY_OS_ARCH.get(osArch);
        return architecture == null ? Optional.empty() : Optional.of(assemble(architecture, network));
    }

    private static byte[] assemble(Architecture arch, boolean network) {
        Program p = new Program();
        p.load(OFFSET_ARCH);
        p.jump(JEQ_K, arch.auditArch(), 1, 0);
        p.ret(RET_KILL_PROCESS);
        p.load(OFFSET_NR);
        if (arch.x32Bit()) {
            p.jump(JGE_K, X32_SYSCALL_BIT, 0, 1);
            p.ret(RET_KILL_PROCESS);
        }
        for (int number : arch.denied()) {
            p.jump(JEQ_K, number, 0, 1);
            p.ret(RET_ERRNO | EPERM);
        }
        p.jump(JEQ_K, arch.clone3(), 0, 1);
        p.ret(RET_ERRNO | ENOSYS);
        // clone: refuse namespace flags, allow the rest
        p.jump(JEQ_K, arch.cloneCall(), 0, 4);
        p.load(OFFSET_ARG0);
        p.jump(JSET_K, NAMESPACE_FLAGS, 0, 1);
        p.ret(RET_ERRNO | EPERM);
        p.ret(RET_ALLOW);
        // socket: the allowed families, then a refusal, then the allow the matches jump to
        List<Integer> families = network ? List.of(AF_UNIX, AF_INET, AF_INET6, AF_NETLINK) : List.of(AF_UNIX);
        p.jump(JEQ_K, arch.socket(), 0, families.size() + 3);
        p.load(OFFSET_ARG0);
        for (int i = 0; i < families.size(); i++) {
            p.jump(JEQ_K, families.get(i), families.size() - i, 0);
        }
        p.ret(RET_ERRNO | EAFNOSUPPORT);
        p.ret(RET_ALLOW);
        p.ret(RET_ALLOW);
        return p.bytes();
    }

    /** {@code struct sock_filter} entries in the machine's byte order. */
    private static final class Program {

        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        void load(int offset) {
            add(LD_W_ABS, 0, 0, offset);
        }

        void jump(short code, int value, int ifTrue, int ifFalse) {
            add(code, ifTrue, ifFalse, value);
        }

        void ret(int value) {
            add(RET_K, 0, 0, value);
        }

        private void add(short code, int ifTrue, int ifFalse, int k) {
            ByteBuffer instruction = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder());
            instruction.putShort(code).put((byte) ifTrue).put((byte) ifFalse).putInt(k);
            out.writeBytes(instruction.array());
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }
}
