#!/usr/bin/env bash
# Runs every benchmark group in one run and writes BENCHMARKS.md: the JMH ratios, the denial sizes, and one
# section per further group (interleaved ratios, scale, MCP stdio, ...), each with the machine's load average
# before and after it. Run from anywhere; extra arguments go to JMH, e.g. a quick check:
#   langchain4j-mero-benchmarks/run-benchmarks.sh -wi 1 -i 1 -w 200ms -r 200ms
# Only some groups:  MERO_BENCH_GROUPS="scale mcp_stdio" langchain4j-mero-benchmarks/run-benchmarks.sh
# (BENCHMARKS.md is then written from this run's groups only; the others say "not run").
# Figures are only meaningful on a quiet machine; the load beside each section says how quiet it was.
#
# Adding a group: write a function group_<name> that prints its section (Markdown, starting with "## ") on
# stdout, and add <name> to BENCH_GROUPS below. run_group records the load before and after it and files the section
# under $out/sections/, which BenchmarkReport puts into BENCHMARKS.md in the order of BENCH_GROUPS.
set -euo pipefail
cd "$(dirname "$0")/.."
out=langchain4j-mero-benchmarks/target
jar="$out/benchmarks.jar"
jmh_args=("$@")
BENCH_GROUPS=(jmh ratios scale mcp_stdio mcp_http pg_decision)

load() { cut -d' ' -f1-3 /proc/loadavg; }

# settle: waits until the 1-minute load average is below MERO_SETTLE_LOAD (default 2, the cores) or
# MERO_SETTLE_SECONDS (default 120) have passed, so that a group does not start in the wake of the one before
# (the HTTP load group leaves the load at 4-5, which the next group measured)
settle() {
  local waited=0 limit=${MERO_SETTLE_SECONDS:-120}
  while (( waited < limit )) && awk -v max="${MERO_SETTLE_LOAD:-2}" '{ exit !($1 >= max) }' /proc/loadavg; do
    sleep 5
    waited=$((waited + 5))
  done
  (( waited == 0 )) || echo "   (waited ${waited} s for the load to settle)" >&2
}

# run_group NAME: runs group_NAME, filing its section with the load before and after
run_group() {
  local name=$1 index=$2 before after section="$out/sections/$(printf '%02d' "$2")-$1.md"
  settle
  before=$(load)
  echo "== group $name (load $before)" >&2
  "group_$name" > "$section.tmp"
  after=$(load)
  echo "$name: load average before $before, after $after" >> "$out/load.txt"
  # the load goes right under the section's heading
  awk -v load="Load average (1, 5, 15 min) before this group: $before; after: $after." \
    'NR == 1 { print; print ""; print load; next } { print }' "$section.tmp" > "$section"
  rm -f "$section.tmp"
}

# JMH: the ratios of the first table (one JMH run) and the denial sizes
group_jmh() {
  java -jar "$jar" -rf json -rff "$out/jmh.json" "${jmh_args[@]}" \
    'FileOperationBenchmark|PathDecisionBenchmark|CommandBenchmark|SandboxBenchmark|SearchBenchmark|ToolLoopBenchmark' >&2
  java -cp "$jar" dev.mero.benchmarks.DenialMessageSize > "$out/denials.txt"
  echo "## JMH run"
  echo
  echo "The first table and \"All results\" come from this group (one JMH run, \`${jmh_args[*]:-JMH defaults}\`)."
}

# interleaved rounds: each round runs both sides, so a loaded machine disturbs both alike
group_ratios() {
  echo "## Interleaved ratios"
  echo
  echo "Both sides of each ratio in alternating rounds of one run (\`ReadRatio\`, \`ListRatio\`, \`PathDecisionRatio\`,"
  echo "\`SandboxRatio\`, \`SearchRatio\`);"
  echo "the medians and the per-round ratio are the figures to trust on a shared machine. \`ReadRatio\` runs on"
  echo "Java 17 (the core's JNI \`openat2\` layer where its library loads, else the JDK's path) and, where one"
  echo "is installed (\`MERO_JDK25_HOME\`), on Java 25 with the multi-release jar's \`openat2\` layer through the"
  echo "foreign-function API; \`SearchRatio\`'s \`find_files\` ratio runs on both as well. Each"
  echo "names the JDK and the layer it used."
  echo
  echo '```'
  java -cp "$jar" dev.mero.benchmarks.ReadRatio "${MERO_READ_ROUNDS:-2000}" 500 2>/dev/null
  local jdk25=${MERO_JDK25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
  if [[ -x $jdk25/bin/java ]]; then
    echo
    "$jdk25/bin/java" --enable-native-access=ALL-UNNAMED -cp "$jar" dev.mero.benchmarks.ReadRatio \
      "${MERO_READ_ROUNDS:-2000}" 500 2>/dev/null
  fi
  echo
  java -cp "$jar" dev.mero.benchmarks.ListRatio 2>/dev/null
  if [[ -x $jdk25/bin/java ]]; then
    echo
    "$jdk25/bin/java" --enable-native-access=ALL-UNNAMED -cp "$jar" dev.mero.benchmarks.ListRatio 2>/dev/null
  fi
  echo
  java -cp "$jar" dev.mero.benchmarks.PathDecisionRatio 2>/dev/null
  echo
  java -cp "$jar" dev.mero.benchmarks.SandboxRatio "${MERO_SANDBOX_ROUNDS:-200}" 50 2>/dev/null
  java -cp "$jar" dev.mero.benchmarks.SearchRatio "${MERO_SEARCH_ROUNDS:-20}" 5 2>/dev/null
  if [[ -x $jdk25/bin/java ]]; then
    "$jdk25/bin/java" --enable-native-access=ALL-UNNAMED -cp "$jar" dev.mero.benchmarks.SearchRatio \
      "${MERO_SEARCH_ROUNDS:-20}" 5 find 2>/dev/null
  fi
  echo '```'
}

# scale: memory per context, decisions per second on 1 and 2 threads, 10,000 contexts in one JVM
group_scale() {
  echo "## Scale on one machine"
  echo
  echo "\`ScaleReport\` (one JVM, \`-Xmx1g\`): the heap each live \`SecurityContext\` holds (one mount, the default"
  echo "protected paths, a command allowlist; the first row includes the classes' one-time static state), the"
  echo "time to build one, and path decisions per second (\`checkPathAccess\` of an allowed file) on 1 and 2"
  echo "threads, on one context and spread over 10,000 live contexts. On 2 cores, 2 threads can at best double"
  echo "the rate, and only when nothing else runs."
  echo
  java -Xmx1g -cp "$jar" dev.mero.benchmarks.ScaleReport "${MERO_SCALE_SECONDS:-3}" 2>/dev/null
}

# MCP stdio: the packaged server against the Node reference server, same run, same file, same client
group_mcp_stdio() {
  local reference=${MERO_MCP_REFERENCE:-$out/mcp-reference/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js}
  if [[ ! -f $reference ]] && command -v npm > /dev/null; then
    npm install --silent --no-audit --no-fund --prefix "$out/mcp-reference" @modelcontextprotocol/server-filesystem >&2 || true
  fi
  echo "## MCP server over stdio"
  echo
  if [[ ! -f $reference ]] || ! command -v node > /dev/null; then
    echo "Not run: no reference server (set MERO_MCP_REFERENCE to the Node filesystem server's dist/index.js)."
    return
  fi
  reference=$(realpath "$reference")
  mvn -B -ntp -q -pl langchain4j-mero-mcp -am test-compile dependency:build-classpath -DskipPitest \
    -Dmdep.includeScope=test -Dmdep.outputFile="$PWD/langchain4j-mero-mcp/target/test.cp" >&2
  echo "\`StdioReadBenchmark\`: 4 KiB \`read_file\` calls per second of the packaged jar (\`java -jar"
  echo "langchain4j-mero-mcp.jar --policy ...\`, the documented launch line) and of the Node reference server"
  echo "(\`@modelcontextprotocol/server-filesystem\`, \`read_text_file\`) in the same run, one call in flight,"
  echo "rounds alternating between them; cold: each server started afresh, timed to the \`initialize\` answer and"
  echo "through the calls. Resident memory: one stdio process is one MCP session."
  echo
  echo '```'
  (cd langchain4j-mero-mcp && java -cp "target/test-classes:$(cat target/test.cp)" dev.mero.mcp.StdioReadBenchmark \
    --reference "$reference" --warmup "${MERO_MCP_WARMUP:-20000}" --calls "${MERO_MCP_CALLS:-5000}" \
    --rounds 3 --cold-rounds 3 --cold-calls 2000 2>/dev/null) | sed "s|$PWD|.|g; s|/tmp/[^ ]*|<tmp>|g"
  echo '```'
}

# PostgreSQL decision ratio (langchain4j-mero-postgres, StoreDecisionRatio): a guarded decision with each shared
# store against a bare SELECT 1 on the same pool, in one run, on private servers the module starts as its tests do
# (fsync off, then on); skipped where no PostgreSQL server binaries are installed
group_pg_decision() {
  echo "## PostgreSQL decision ratio"
  echo
  if [ -n "${MERO_PG_BIN:-}" ] || ls /usr/lib/postgresql/*/bin/initdb > /dev/null 2>&1; then
    echo '```'
    # Maven 3.8's console writes colour resets even in batch mode; the report keeps plain text
    mvn -B -ntp -q -Pdecision-ratio -pl langchain4j-mero-postgres -am verify -DskipTests \
      | sed 's/\x1b\[[0-9;]*m//g' | tee "$out/decision-ratio.txt"
    echo '```'
  else
    echo "Not run: no PostgreSQL server binaries (install postgresql or set MERO_PG_BIN)."
  fi
}

# MCP over Streamable HTTP under load: 32 authenticated SDK clients reading 4 KiB files over loopback (HttpLoad),
# then the heap held per live session (HttpSessionMemory)
group_mcp_http() {
  echo "## MCP over Streamable HTTP"
  echo
  echo "\`HttpLoad\`: 32 concurrent clients, each with its own API key, reading 4 KiB files over loopback for 10 s"
  echo "after a 5 s warm-up; client and server in one JVM, audit lines at \`warn\`."
  echo
  echo '```'
  java -Dorg.slf4j.simpleLogger.log.dev.mero.audit=warn -cp "$jar" dev.mero.benchmarks.HttpLoad 10 32 5 \
    2>/dev/null | tee "$out/http-load.txt"
  echo '```'
  echo
  echo "\`HttpSessionMemory\` (one JVM, \`-Xmx1g\`): the heap one Streamable HTTP session holds in the server, after"
  echo "full collections, with 100, 1,000 and 5,000 live sessions (each initialized and used for one 4 KiB"
  echo "\`read_file\`; plain HTTP requests on the client side, so what grows is the server's). A stdio session is a"
  echo "process of its own: its resident memory is in the stdio section."
  echo
  java -Xmx1g -Dorg.slf4j.simpleLogger.log.dev.mero.audit=warn -cp "$jar" dev.mero.benchmarks.HttpSessionMemory \
    2>/dev/null | tee "$out/http-sessions.txt"
}

# --- other groups go here (one function each, named in BENCH_GROUPS) ---

selected=(${MERO_BENCH_GROUPS:-${BENCH_GROUPS[@]}})
mvn -B -ntp -q -pl langchain4j-mero-benchmarks,langchain4j-mero-mcp -am package -DskipTests -DskipPitest
rm -rf "$out/sections" "$out/load.txt" "$out/jmh.json" "$out/denials.txt"
mkdir -p "$out/sections"
echo '[]' > "$out/jmh.json"
: > "$out/denials.txt"
for i in "${!BENCH_GROUPS[@]}"; do
  for wanted in "${selected[@]}"; do
    if [[ ${BENCH_GROUPS[$i]} == "$wanted" ]]; then
      run_group "${BENCH_GROUPS[$i]}" "$i"
    fi
  done
done
{
  grep -m1 'model name' /proc/cpuinfo || true
  echo "nproc: $(nproc)"
  echo "load average (1, 5, 15 min) at the end: $(load)"
  cat "$out/load.txt"
  java -version 2>&1
} > "$out/machine.txt"
java -cp "$jar" dev.mero.benchmarks.BenchmarkReport "$out/jmh.json" "$out/denials.txt" "$out/machine.txt" \
  "langchain4j-mero-benchmarks/run-benchmarks.sh $*" BENCHMARKS.md \
  langchain4j-mero-core-mutation/target/pit-reports/mutations.xml "$out/sections"
echo "wrote BENCHMARKS.md"
