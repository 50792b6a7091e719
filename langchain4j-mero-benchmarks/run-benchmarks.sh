#!/usr/bin/env bash
# Runs every benchmark in one JMH run with JSON output and writes BENCHMARKS.md (ratios, denial sizes, the
# machine, the command). Run from anywhere; extra arguments go to JMH, e.g. a quick check:
#   langchain4j-mero-benchmarks/run-benchmarks.sh -wi 1 -i 1 -w 200ms -r 200ms
# Figures are only meaningful on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."
out=langchain4j-mero-benchmarks/target
mvn -B -ntp -q -pl langchain4j-mero-benchmarks -am package -DskipTests
jar="$out/benchmarks.jar"
java -jar "$jar" -rf json -rff "$out/jmh.json" "$@" \
  'FileOperationBenchmark|PathDecisionBenchmark|CommandBenchmark|SandboxBenchmark|SearchBenchmark|ToolLoopBenchmark'
java -cp "$jar" dev.mero.benchmarks.DenialMessageSize | tee "$out/denials.txt"
# --- begin: MCP over Streamable HTTP under load (issue 22); printed, not part of BENCHMARKS.md ---
java -Dorg.slf4j.simpleLogger.log.dev.mero.audit=warn -cp "$jar" dev.mero.benchmarks.HttpLoad 10 32 5 \
  2>/dev/null | tee "$out/http-load.txt"
# --- end: MCP over Streamable HTTP under load ---
# --- begin PostgreSQL decision ratio (langchain4j-mero-postgres, StoreDecisionRatio) ---
# A guarded decision with each shared store against a bare SELECT 1 on the same pool, in one run, on a private
# server the module starts (as its tests do); skipped where no PostgreSQL server binaries are installed.
if [ -n "${MERO_PG_BIN:-}" ] || ls /usr/lib/postgresql/*/bin/initdb > /dev/null 2>&1; then
  mvn -B -ntp -q -Pdecision-ratio -pl langchain4j-mero-postgres -am verify -DskipTests \
    | tee "$out/decision-ratio.txt"
else
  echo "No PostgreSQL server binaries (install postgresql or set MERO_PG_BIN): decision ratio not measured" \
    | tee "$out/decision-ratio.txt"
fi
# --- end PostgreSQL decision ratio ---
{
  grep -m1 'model name' /proc/cpuinfo || true
  echo "nproc: $(nproc)"
  echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
  java -version 2>&1
} > "$out/machine.txt"
java -cp "$jar" dev.mero.benchmarks.BenchmarkReport "$out/jmh.json" "$out/denials.txt" "$out/machine.txt" \
  "langchain4j-mero-benchmarks/run-benchmarks.sh $*" BENCHMARKS.md \
  langchain4j-mero-core/target/pit-reports/mutations.xml
echo "wrote BENCHMARKS.md"
