package dev.mero.core.command;

import dev.mero.core.message.Messages;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds the executable file a program name stands for, on a search path fixed by the context and never taken
 * from the agent or the process environment.
 */
final class ProgramLocator {

    /** The search path used when a context sets none. */
    static final String DEFAULT_SEARCH_PATH = "/usr/local/bin:/usr/bin:/bin";

    private final String text;
    private final List<Path> directories;

    private ProgramLocator(String text, List<Path> directories) {
        this.text = text;
        this.directories = directories;
    }

    /**
     * Parses a colon-separated list of absolute directories. An empty element (which a shell reads as the
     * current directory) and a relative one are refused.
     */
    static ProgramLocator of(String searchPath) {
        if (searchPath == null || searchPath.isEmpty()) {
            throw new IllegalArgumentException("Invalid command search path " + Messages.quote(searchPath)
                    + ": give colon-separated absolute directories such as " + Messages.quote(DEFAULT_SEARCH_PATH));
        }
        List<Path> directories = new ArrayList<>();
        for (String element : searchPath.split(":", -1)) {
            if (ProgramName.of(element) != ProgramName.ABSOLUTE) {
                throw new IllegalArgumentException("Invalid command search path " + Messages.quote(searchPath)
                        + ": element " + Messages.quote(element) + " is not a normalised absolute directory; an "
                        + "empty or relative element would make programs resolve against the working directory");
            }
            directories.add(Path.of(element));
        }
        return new ProgramLocator(searchPath, List.copyOf(directories));
    }

    /** The search path as configured. */
    String text() {
        return text;
    }

    /** The search path's directories, in lookup order. */
    List<Path> directories() {
        return directories;
    }

    /**
     * The executable a program stands for: a bare name is looked up in each directory in order, an absolute
     * path is taken as it is. Empty if there is no executable regular file there.
     */
    Optional<Located> locate(String program) {
        return switch (ProgramName.of(program)) {
            case BARE -> {
                for (Path directory : directories) {
                    Optional<Located> found = executable(directory.resolve(program));
                    if (found.isPresent()) {
                        yield found;
                    }
                }
                yield Optional.empty();
            }
            case ABSOLUTE -> executable(Path.of(program));
            case RELATIVE -> Optional.empty();
        };
    }

    private static Optional<Located> executable(Path candidate) {
        if (!Files.isRegularFile(candidate) || !Files.isExecutable(candidate)) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Located(candidate, candidate.toRealPath()));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * A found program.
     *
     * @param executable the path found, symlinks kept, so that a multi-call binary still sees the name it was
     *                   invoked as
     * @param real       the canonical file that will actually run
     */
    record Located(Path executable, Path real) {
    }
}
