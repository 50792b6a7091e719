package dev.mero.core.command.guard;

import dev.mero.core.message.Messages;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code tar} (GNU): refuses, in modern, grouped and old-style spellings ({@code tar xIf prog a.tar}) and in
 * every abbreviation ({@code --to-com}, {@code --use}):
 * <ul>
 *   <li>options that run programs: {@code --to-command}, {@code --checkpoint-action},
 *       {@code -I}/{@code --use-compress-program}, {@code -F}/{@code --info-script}/{@code --new-volume-script},
 *       {@code --rsh-command}, {@code --rmt-command}, and a remote archive ({@code -f host:file}, opened
 *       through a remote shell) unless {@code --force-local} is given;</li>
 *   <li>extraction ({@code -x}, {@code --extract}, {@code --get}), which writes files the file tools never
 *       checked, and options that write or delete files: {@code --index-file}, {@code --volno-file},
 *       {@code -g}/{@code --listed-incremental}, {@code --remove-files}, {@code --delete};</li>
 *   <li>options that read files the policy did not check: {@code -T}/{@code --files-from},
 *       {@code -h}/{@code --dereference} (follows links out of the entries), {@code -P}/{@code --absolute-names};</li>
 *   <li>{@code -M}/{@code --multi-volume}, whose volume prompt can start a shell.</li>
 * </ul>
 * The built-in compressors ({@code -z}, {@code -j}, {@code -J}, {@code --zstd}, ...) stay allowed: tar runs
 * them by fixed name.
 */
final class TarGuard extends ProgramGuard {

    private static final Map<String, String> DANGEROUS_LONG = Map.ofEntries(
            Map.entry("to-command", "runs a command for each file"),
            Map.entry("checkpoint-action", "can run a command at each checkpoint"),
            Map.entry("use-compress-program", "runs a program of your choice as the compressor"),
            Map.entry("info-script", "runs a script"),
            Map.entry("new-volume-script", "runs a script"),
            Map.entry("rsh-command", "runs a remote shell"),
            Map.entry("rmt-command", "runs a remote tape program"),
            Map.entry("extract", "extracts files, writing them where the file tools never checked"),
            Map.entry("get", "extracts files, writing them where the file tools never checked"),
            Map.entry("index-file", "writes a file"),
            Map.entry("volno-file", "writes a file"),
            Map.entry("listed-incremental", "writes a snapshot file"),
            Map.entry("remove-files", "deletes files"),
            Map.entry("delete", "deletes members from an archive file"),
            Map.entry("files-from", "reads the names of files to archive from a file the policy cannot check"),
            Map.entry("dereference", "follows symbolic links, which can lead outside the mounted entries"),
            Map.entry("absolute-names", "keeps absolute names, which can lead outside the mounted entries"),
            Map.entry("multi-volume", "prompts for the next volume, and that prompt can start a shell"));
    private static final Map<Character, String> DANGEROUS_SHORT = Map.of(
            'x', "extract", 'I', "use-compress-program", 'F', "info-script", 'g', "listed-incremental",
            'T', "files-from", 'h', "dereference", 'P', "absolute-names", 'M', "multi-volume");
    private static final String SHORT_WITH_VALUE = "bCfFgHIKLNTVX";
    private static final Set<String> LONG_WITH_VALUE = Set.of("file", "directory", "to-command", "checkpoint-action",
            "use-compress-program", "info-script", "new-volume-script", "rsh-command", "rmt-command", "index-file",
            "volno-file", "listed-incremental", "files-from");
    private static final OptionScan.Spec SPEC;

    static {
        Set<String> known = new HashSet<>(DANGEROUS_LONG.keySet());
        known.addAll(LONG_WITH_VALUE);
        known.addAll(Set.of("checkpoint", "list", "file", "force-local"));
        SPEC = OptionScan.Spec.gnu(SHORT_WITH_VALUE, LONG_WITH_VALUE, Set.copyOf(known));
    }

    TarGuard() {
        super(Set.of("tar", "gtar"));
    }

    @Override
    Optional<String> inspect(List<String> arguments) {
        OptionScan scan = OptionScan.of(modernised(arguments), SPEC);
        boolean forceLocal = false;
        for (OptionScan.Option option : scan.options()) {
            forceLocal |= option.isLong("force-local") && option.name().length() >= "force".length();
        }
        for (OptionScan.Option option : scan.options()) {
            if (!option.longForm() && DANGEROUS_SHORT.containsKey(option.name().charAt(0))) {
                return refuse(option, DANGEROUS_LONG.get(DANGEROUS_SHORT.get(option.name().charAt(0))));
            }
            for (Map.Entry<String, String> dangerous : DANGEROUS_LONG.entrySet()) {
                if (option.isLong(dangerous.getKey())) {
                    return refuse(option, dangerous.getValue());
                }
            }
            boolean archive = option.isShort('f') || option.isLong("file");
            if (archive && !forceLocal && option.value() != null && option.value().indexOf(':') >= 0) {
                return refuse("the archive " + Messages.quote(option.value()) + " names a remote host, which tar "
                        + "reaches through a remote shell; name a local file (or add --force-local)");
            }
        }
        return Optional.empty();
    }

    private static Optional<String> refuse(OptionScan.Option option, String what) {
        return refuse("the option " + shown(option) + " " + what + "; leave it out");
    }

    /** Old-style {@code tar xvf a.tar} as {@code tar -x -v -fa.tar}: the first word is a group of letters. */
    private static List<String> modernised(List<String> arguments) {
        if (arguments.isEmpty() || arguments.get(0).startsWith("-") || arguments.get(0).isEmpty()) {
            return arguments;
        }
        String letters = arguments.get(0);
        List<String> result = new ArrayList<>();
        int next = 1;
        for (int k = 0; k < letters.length(); k++) {
            char letter = letters.charAt(k);
            if (SHORT_WITH_VALUE.indexOf(letter) >= 0 && next < arguments.size()) {
                String value = arguments.get(next++);
                result.add("-" + letter + value);
                if (value.isEmpty()) {
                    result.add(value);
                }
            } else {
                result.add("-" + letter);
            }
        }
        result.addAll(arguments.subList(next, arguments.size()));
        return result;
    }
}
