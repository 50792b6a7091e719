package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import java.io.IOException;
import java.nio.file.ClosedDirectoryStreamException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The life of a kept mount-root handle ({@link MountRoots}): borrowed handles are shared, the least recently used
 * of more than {@link MountRoots#MAX_OPEN} is closed, but never while a call still uses it.
 */
class MountRootsHandleTest {

    @TempDir
    Path temp;

    private PathEntry mount(String name) throws IOException {
        Path directory = Files.createDirectories(temp.resolve(name));
        return PathEntry.of(directory.toString(), name, Permission.READ);
    }

    /** Whether the kernel handle behind {@code stream} is still open: a closed one refuses every call. */
    private static boolean isOpen(SecureDirectoryStream<Path> stream) throws IOException {
        try {
            stream.getFileAttributeView(BasicFileAttributeView.class).readAttributes();
            return true;
        } catch (ClosedDirectoryStreamException closed) {
            return false;
        }
    }

    /** Borrows and at once releases a handle for each of {@code count} new mounts, the oldest first. */
    private List<MountRoots.Handle> fillWithNewMounts(String prefix, int count) throws IOException {
        List<MountRoots.Handle> handles = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            MountRoots.Handle handle = MountRoots.borrow(mount(prefix + i));
            handle.release();
            handles.add(handle);
        }
        return handles;
    }

    /** The mount's kept handle, borrowed and released again: open, and used by no call. */
    private static MountRoots.Handle keptHandle(PathEntry entry) throws IOException {
        MountRoots.Handle handle = MountRoots.borrow(entry);
        handle.release();
        return handle;
    }

    /** Evicts every handle kept so far and checks that {@code handle}, which no call uses, was closed. */
    private void assertClosedOnceEvicted(MountRoots.Handle handle) throws IOException {
        fillWithNewMounts("m", MountRoots.MAX_OPEN);
        assertThat(isOpen(handle.stream())).isFalse();
    }

    @Test
    void aMountsHandleIsKeptAndSharedByEveryBorrower() throws IOException {
        PathEntry ws = mount("ws");

        MountRoots.Handle first = MountRoots.borrow(ws);
        MountRoots.Handle second = MountRoots.borrow(ws);

        assertThat(first).isNotNull().isSameAs(second);
        first.release();
        second.release();
        assertThat(isOpen(first.stream())).isTrue();
        assertThat(MountRoots.borrow(ws)).isSameAs(first);
        first.release();
    }

    @Test
    void exactlyTheBoundOfHandlesStaysOpenAndTheLeastRecentlyUsedIsClosedBeyondIt() throws IOException {
        List<MountRoots.Handle> handles = fillWithNewMounts("m", MountRoots.MAX_OPEN);

        assertThat(handles).allSatisfy(handle -> assertThat(isOpen(handle.stream())).isTrue());
        assertThat(MountRoots.openCount()).isEqualTo(MountRoots.MAX_OPEN);

        fillWithNewMounts("n", 1);

        assertThat(isOpen(handles.get(0).stream())).isFalse();
        assertThat(handles.subList(1, handles.size()))
                .allSatisfy(handle -> assertThat(isOpen(handle.stream())).isTrue());
    }

    @Test
    void anEvictedHandleStaysOpenWhileBorrowedAndClosesWithItsLastRelease() throws IOException {
        PathEntry ws = mount("ws");
        MountRoots.Handle first = MountRoots.borrow(ws);
        MountRoots.Handle second = MountRoots.borrow(ws);

        fillWithNewMounts("m", MountRoots.MAX_OPEN);

        assertThat(isOpen(first.stream())).isTrue();
        first.release();
        assertThat(isOpen(second.stream())).isTrue();
        second.release();
        assertThat(isOpen(first.stream())).isFalse();
        // the mount gets a new handle of its own
        MountRoots.Handle again = MountRoots.borrow(ws);
        assertThat(again).isNotSameAs(first);
        assertThat(isOpen(again.stream())).isTrue();
        again.release();
    }

    @Test
    void aDirectoryThatReplacedTheMountGetsItsOwnHandleAndTheOldMountIsRefused() throws IOException {
        PathEntry ws = mount("ws");
        MountRoots.Handle kept = keptHandle(ws);
        Files.move(ws.realPath(), temp.resolve("moved-away"));
        Files.createDirectories(ws.realPath());
        PathEntry replacement = PathEntry.of(ws.realPath().toString(), "ws", Permission.READ);

        MountRoots.Handle fresh = MountRoots.borrow(replacement);

        assertThat(fresh).isNotNull().isNotSameAs(kept);
        assertThat(isOpen(kept.stream())).isFalse();
        fresh.release();
        assertThatThrownBy(() -> MountRoots.borrow(ws)).isInstanceOf(IOException.class)
                .hasMessage("the mount root is no longer the mounted directory");
        assertThat(MountRoots.borrow(replacement)).isSameAs(fresh);
        fresh.release();
    }

    @Test
    void theMountRootIsOpenedThroughItsKeptHandleAndClosingItOnlyEndsTheBorrow() throws IOException {
        PathEntry ws = mount("ws");
        MountRoots.Handle kept = keptHandle(ws);

        SecureDirectory root = SecureDirectory.open(ws, ws.realPath());
        assertThat(root.stream()).isSameAs(kept.stream());
        root.close();
        assertThat(isOpen(kept.stream())).isTrue();

        assertClosedOnceEvicted(kept); // the borrow really ended
    }

    @Test
    void aDirectoryBelowTheMountGetsAHandleOfItsOwnThatClosingCloses() throws IOException {
        PathEntry ws = mount("ws");
        Path sub = Files.createDirectories(ws.realPath().resolve("sub"));
        MountRoots.Handle kept = keptHandle(ws);

        SecureDirectory below = SecureDirectory.open(ws, sub);
        assertThat(below.stream()).isNotSameAs(kept.stream());
        assertThat(below.stream().getFileAttributeView(BasicFileAttributeView.class).readAttributes().fileKey())
                .isEqualTo(Files.readAttributes(sub, BasicFileAttributes.class).fileKey());
        below.close();

        assertThat(isOpen(below.stream())).isFalse();
        assertThat(isOpen(kept.stream())).isTrue();
        assertClosedOnceEvicted(kept); // the walk below borrowed the kept handle only while it walked
    }

    @Test
    void aListingReadsOneNameMoreThanAskedSoThatACutIsKnown() throws IOException {
        PathEntry ws = mount("ws");
        for (int i = 0; i < 5; i++) {
            Files.writeString(ws.realPath().resolve("f" + i), "");
        }

        try (SecureDirectory directory = SecureDirectory.open(ws, ws.realPath())) {
            assertThat(directory.names(2)).hasSize(3).allSatisfy(name -> assertThat(name).matches("f[0-4]"));
        }
        try (SecureDirectory directory = SecureDirectory.open(ws, ws.realPath())) {
            assertThat(directory.names(10)).containsExactlyInAnyOrder("f0", "f1", "f2", "f3", "f4");
        }
    }
}
