package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import com.google.re2j.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A batch of listed files: full at exactly {@link SearchBatch#MAX_PENDING}, searched in the order added. */
class SearchBatchTest {

    @TempDir
    Path temp;

    private static SearchBatch batch(int threads) {
        Pattern pattern = Pattern.compile("needle");
        return new SearchBatch(() -> new FileScanner(pattern, LiteralPrefilter.of("needle").orElse(null), 1 << 16,
                10), threads, Long.MAX_VALUE);
    }

    @Test
    void aBatchIsFullExactlyAtItsBound() {
        try (SearchBatch batch = batch(1)) {
            for (int i = 1; i < SearchBatch.MAX_PENDING; i++) {
                assertThat(batch.add(new SearchBatch.Pending(null, "f" + i, 0, () -> "/ws/f"))).as("file %d", i)
                        .isFalse();
            }
            assertThat(batch.add(new SearchBatch.Pending(null, "last", 0, () -> "/ws/last"))).isTrue();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void everyFileIsSearchedOnceAndReportedInTheOrderAdded(int threads) throws IOException {
        Path ws = Files.createDirectories(temp.resolve("ws"));
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String name = "f" + (39 - i) + ".txt";
            Files.writeString(ws.resolve(name), i % 3 == 0 ? "hay\nneedle " + name + "\n" : "hay\n");
            names.add(name);
        }
        PathEntry entry = PathEntry.of(ws.toString(), "ws", Permission.READ);

        try (SecureDirectory directory = SecureDirectory.open(entry, ws.toRealPath());
             SearchBatch batch = batch(threads)) {
            for (String name : names) {
                batch.add(new SearchBatch.Pending(directory, name, Files.size(ws.resolve(name)), () -> "/ws/" + name));
            }
            List<SearchBatch.Searched> searched = batch.search();

            assertThat(searched).extracting(s -> s.file().name()).containsExactlyElementsOf(names);
            for (int i = 0; i < names.size(); i++) {
                SearchBatch.Searched one = searched.get(i);
                assertThat(one.found().searched).isTrue();
                assertThat(one.found().lines).as(names.get(i))
                        .isEqualTo(i % 3 == 0 ? List.of(":2: needle " + names.get(i)) : List.of());
            }
            assertThat(batch.search()).isEmpty();
        }
    }
}
