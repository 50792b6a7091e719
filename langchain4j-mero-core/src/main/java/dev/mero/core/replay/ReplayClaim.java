package dev.mero.core.replay;

import java.util.Objects;
import java.util.Optional;

/**
 * The answer of {@link ReplayStore#claim(String, String, java.time.Duration)}: either the caller now owns
 * the call id and must run the call (then {@link ReplayStore#complete(String, String, String) complete} it),
 * or the id already ran and this is its first result. Instances are immutable.
 */
public final class ReplayClaim {

    private static final ReplayClaim OWNER = new ReplayClaim(null);

    private final String result;

    private ReplayClaim(String result) {
        this.result = result;
    }

    /**
     * The claim of a caller that must run the call: nobody ran this id before.
     *
     * @return the owner's claim
     */
    public static ReplayClaim owner() {
        return OWNER;
    }

    /**
     * The claim of a repeat: the id already ran and returned this result.
     *
     * @param result the first run's result
     * @return the repeat's claim
     */
    public static ReplayClaim replay(String result) {
        return new ReplayClaim(Objects.requireNonNull(result, "result"));
    }

    /**
     * Whether the caller owns the id and must run the call.
     *
     * @return {@code true} for the first caller of an id
     */
    public boolean isOwner() {
        return result == null;
    }

    /**
     * The first run's result, for a repeat.
     *
     * @return the result, empty for the owner
     */
    public Optional<String> result() {
        return Optional.ofNullable(result);
    }

    @Override
    public String toString() {
        return isOwner() ? "ReplayClaim{owner}" : "ReplayClaim{replay, " + result.length() + " characters}";
    }
}
