package dev.mero.core.command.guard;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The getopt_long reading every guard relies on: each option is seen with its value, however it is spelled. */
class OptionScanTest {

    /** Short {@code -f} and {@code -x} take a value, {@code -a} and {@code -b} an optional glued one. */
    private static final OptionScan.Spec SPEC = new OptionScan.Spec("fx", "ab", Set.of("to-command", "total"),
            Set.of("to-command", "total", "verbose"), false);

    private static OptionScan scan(String... arguments) {
        return OptionScan.of(List.of(arguments), SPEC);
    }

    private static OptionScan.Option only(OptionScan scan) {
        assertThat(scan.options()).hasSize(1);
        return scan.options().get(0);
    }

    @Test
    void aProgramThatStopsAtItsFirstOperandReadsTheRestAsOperands() {
        OptionScan.Spec stops = new OptionScan.Spec("", "", Set.of(), Set.of(), true);

        OptionScan scan = OptionScan.of(List.of("-v", "x", "-y"), stops);

        assertThat(scan.options()).extracting(OptionScan.Option::name).containsExactly("v");
        assertThat(scan.operands()).containsExactly("x", "-y");
        assertThat(scan("x", "-y").options()).extracting(OptionScan.Option::name).containsExactly("y");
    }

    @Test
    void aLongOptionAbbreviatedUnambiguouslyTakesItsValue() {
        OptionScan.Option option = only(scan("--to-com", "id", "x"));

        assertThat(option.resolved()).isEqualTo("to-command");
        assertThat(option.value()).isEqualTo("id");
        assertThat(option.isLong("to-command")).isTrue();
        assertThat(scan("--to-com", "id", "x").operands()).containsExactly("x");
    }

    @Test
    void anAmbiguousAbbreviationResolvesToNothingAndTakesNoValue() {
        OptionScan scan = scan("--to", "x");

        assertThat(only(scan).resolved()).isNull();
        assertThat(only(scan).value()).isNull();
        assertThat(scan.operands()).containsExactly("x");
        assertThat(only(scan("--=x")).resolved()).isNull();
    }

    @Test
    void aLongOptionWithoutAValueLeavesTheNextArgumentAnOperand() {
        OptionScan scan = scan("--verbose", "x");

        assertThat(only(scan).value()).isNull();
        assertThat(scan.operands()).containsExactly("x");
    }

    @Test
    void aLongOptionThatTakesAValueButComesLastHasNone() {
        OptionScan.Option option = only(scan("x", "--total"));

        assertThat(option.resolved()).isEqualTo("total");
        assertThat(option.value()).isNull();
    }

    @Test
    void anOptionalShortValueIsOnlyTheGluedRest() {
        assertThat(only(scan("-afoo")).value()).isEqualTo("foo");
        assertThat(only(scan("-bfoo")).value()).isEqualTo("foo");
        OptionScan bare = scan("-a", "foo");
        assertThat(only(bare).value()).isNull();
        assertThat(bare.operands()).containsExactly("foo");
    }

    @Test
    void aShortValueIsGluedOrTheNextArgument() {
        assertThat(scan("-vfx.tar").options()).extracting(OptionScan.Option::name, OptionScan.Option::value)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("v", null),
                        org.assertj.core.groups.Tuple.tuple("f", "x.tar"));
        assertThat(only(scan("-f", "x.tar")).value()).isEqualTo("x.tar");
        assertThat(only(scan("-f")).value()).isNull();
    }
}
