package dev.mero.core.command.guard;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.mero.core.command.guard.GuardCalls.check;
import static org.assertj.core.api.Assertions.assertThat;

class TarGuardTest {

    @ParameterizedTest
    @ValueSource(strings = {"tar -xf a.tar", "tar xf a.tar", "tar xvf a.tar", "tar --extract -f a.tar",
            "tar --ext -f a.tar", "tar --get -f a.tar", "tar -tf a.tar -x",
            "tar -cf a.tar --to-command=id x", "tar -cf a.tar --to-com=id x", "tar -cf a.tar --to-command id x",
            "tar -cf a.tar --checkpoint=1 --checkpoint-action=exec=id x", "tar -cf a.tar --checkpoint-a=exec=id x",
            "tar -cf a.tar -I id x", "tar -cIid -f a.tar x", "tar -cf a.tar --use-compress-program=id x",
            "tar -cf a.tar --use=id x", "tar cIf id a.tar x", "tar -cf a.tar -F id x", "tar -cf a.tar --info-script=id x",
            "tar -cf a.tar --new-volume-script=id x", "tar -cf a.tar --rsh-command=id x",
            "tar -cf a.tar --rmt-command=id x", "tar -cf a.tar --index-file=out x", "tar -cf a.tar --volno-file=out x",
            "tar -cf a.tar -g snap x", "tar -cf a.tar --listed-incremental=snap x", "tar -cf a.tar --remove-files x",
            "tar --delete -f a.tar x", "tar -cf a.tar -T list", "tar -cf a.tar --files-from=list",
            "tar -chf a.tar x", "tar -cf a.tar --dereference x", "tar -cPf a.tar x", "tar -cf a.tar --absolute-names x",
            "tar -cf host:a.tar x", "tar -c --file=user@host:a.tar x", "tar cf host:a.tar x",
            "tar -cf a.tar --files x", "tar -cMf a.tar x", "tar -cf a.tar --multi-volume x",
            // old-style letters take their values in order; an empty archive name hides no option
            "tar cbf 20 host:a.tar x", "tar cf '' --to-command=id x", "tar -cf :a.tar x"})
    void code_running_extracting_and_escaping_forms_are_refused(String line) {
        assertThat(check(ArgumentGuards.tar(), line)).as(line).isPresent();
    }

    @Test
    void messages() {
        assertThat(check(ArgumentGuards.tar(), "tar -cf a.tar --to-com=id x")).contains("the option '--to-com' runs a "
                + "command for each file; leave it out");
        assertThat(check(ArgumentGuards.tar(), "tar xf a.tar")).contains("the option '-x' extracts files, writing them "
                + "where the file tools never checked; leave it out");
        assertThat(check(ArgumentGuards.tar(), "tar -cf host:a.tar x")).contains("the archive 'host:a.tar' names a "
                + "remote host, which tar reaches through a remote shell; name a local file (or add --force-local)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"tar -cf a.tar x", "tar cf a.tar x", "tar -czf a.tgz x", "tar cjvf a.tbz x",
            "tar -tf a.tar", "tar tvf a.tar", "tar --list --file=a.tar", "tar -cf a.tar --checkpoint=10 x",
            "tar -cf - x", "tar -C sub -cf a.tar x", "tar -cf a:b.tar --force-local x", "tar -cf a.tar -X excl x",
            "tar -cf a.tar --exclude='*.o' x", "tar -cf a.tar --file-x", "tar -c --force -f a:b.tar x", "tar cf"})
    void listing_and_creating_archives_pass(String line) {
        assertThat(check(ArgumentGuards.tar(), line)).as(line).isEmpty();
    }
}
