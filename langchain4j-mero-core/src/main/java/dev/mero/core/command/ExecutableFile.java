package dev.mero.core.command;

import dev.mero.core.message.Messages;
import dev.mero.core.OperationFailedException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Checks, right before a run, that the program is a file the kernel itself can execute: a compiled ELF
 * binary or a script whose first line names its interpreter with {@code #!}.
 *
 * <p>This closes a shell the JDK would otherwise open: when {@code execve} refuses a file
 * ({@code ENOEXEC}), the JDK (like {@code execvp}) runs it with {@code /bin/sh} instead. The runner never
 * hands anything to a shell, so such a file is refused before it is started.
 */
final class ExecutableFile {

    private static final byte[] ELF_MAGIC = {0x7F, 'E', 'L', 'F'};
    private static final byte[] SHEBANG = {'#', '!'};

    private ExecutableFile() {
    }

    /**
     * Checks that a program can be run directly.
     *
     * @param program an absolute path
     * @param shown   how messages name the program: as the agent wrote it, never a mount's host path
     * @throws OperationFailedException if the program is missing, not executable, or would be handed to a
     *                                  shell
     */
    static void requireDirectlyExecutable(Path program, String shown) {
        String quoted = Messages.quote(shown);
        if (!Files.isRegularFile(program)) {
            throw new OperationFailedException("Program " + quoted + " does not exist or is not a regular file; "
                    + "nothing was run.");
        }
        if (!Files.isExecutable(program)) {
            throw new OperationFailedException("Program " + quoted + " is not executable; nothing was run.");
        }
        if (!hasKernelFormat(program)) {
            throw new OperationFailedException("Program " + quoted + " is neither a compiled executable nor a "
                    + "script starting with '#!'; nothing was run, because commands are never handed to a shell. "
                    + "Add a '#!' line naming the interpreter.");
        }
    }

    private static boolean hasKernelFormat(Path program) {
        byte[] head;
        try (InputStream in = Files.newInputStream(program)) {
            head = in.readNBytes(ELF_MAGIC.length);
        } catch (IOException e) {
            // an execute-only file: a shell could not read it either, so the kernel alone decides
            return true;
        }
        return startsWith(head, ELF_MAGIC) || startsWith(head, SHEBANG);
    }

    private static boolean startsWith(byte[] bytes, byte[] prefix) {
        return bytes.length >= prefix.length
                && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
    }
}
