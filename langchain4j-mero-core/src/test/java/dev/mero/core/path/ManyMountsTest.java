package dev.mero.core.path;

import dev.mero.core.PathAccessDeniedException;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;

import dev.mero.core.path.PathResolver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A context with many mounts finds each by its slug and keeps its denials short. */
class ManyMountsTest {

    private static final int MOUNTS = 1000;

    @TempDir
    Path tmp;

    private Path root;
    private SecurityContext context;

    @BeforeEach
    void mounts() throws Exception {
        root = tmp.toRealPath();
        SecurityContext.Builder builder = SecurityContext.builder().name("many");
        for (int i = 0; i < MOUNTS; i++) {
            Path dir = Files.createDirectories(root.resolve("m" + i));
            builder.path(PathEntry.of(dir.toString(), "m" + i, Permission.READ));
        }
        context = builder.build();
    }

    @Test
    void everyMountIsFoundByItsSlugAndByItsHostPath() {
        for (int i : new int[] {0, 1, 9, 10, 11, 500, MOUNTS - 1}) {
            assertThat(context.checkPathAccess("/m" + i + "/f.txt", Permission.READ).realPath())
                    .isEqualTo(root.resolve("m" + i).resolve("f.txt"));
            assertThat(context.checkPathAccess(root.resolve("m" + i + "/f.txt").toString(), Permission.READ)
                    .virtualPath()).isEqualTo("/m" + i + "/f.txt");
        }
        assertThat(context.checkPathAccess("f.txt", Permission.READ).virtualPath()).isEqualTo("/m0/f.txt");
    }

    @Test
    void aDenialNamesTheFirstTenMountsAndHowManyMoreThereAre() {
        assertThatThrownBy(() -> context.checkPathAccess("/m1000/f.txt", Permission.READ))
                .isInstanceOf(PathAccessDeniedException.class)
                .hasMessage("Path '/m1000/f.txt' is an absolute path that isn't covered by any configured PathEntry, "
                        + "and its leading segment doesn't match a mounted slug (mounted: '/m0', '/m1', '/m2', '/m3', "
                        + "'/m4', '/m5', '/m6', '/m7', '/m8', '/m9' and 990 more; list_roots shows them all).");
    }

    @Test
    void exactlyTenMountsAreAllNamed() throws Exception {
        SecurityContext.Builder builder = SecurityContext.builder().name("ten");
        for (int i = 0; i < PathResolver.MAX_LISTED_MOUNTS; i++) {
            builder.path(PathEntry.of(root.resolve("m" + i).toString(), "m" + i, Permission.READ));
        }
        assertThatThrownBy(() -> builder.build().checkPath("/x/y"))
                .hasMessageEndingWith("(mounted: '/m0', '/m1', '/m2', '/m3', '/m4', '/m5', '/m6', '/m7', '/m8', "
                        + "'/m9').");
    }
}
