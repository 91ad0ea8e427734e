#!/usr/bin/env bash
# One fuzzing campaign: each target in turn (one process, so it shares a machine politely) for
# RUNS executions (default 10^7), from its seed corpus (corpus/TARGET, kept in git, read only)
# into a working corpus (work/TARGET, ignored by git). A crash stops that target, leaves the
# input in artifacts/TARGET/ and the campaign goes on with the next. Logs: work/TARGET.log; the
# last lines of each (executions, coverage) are what fuzz/README.md reports.
#   ./campaign.sh                 # every target, 10^7 executions each
#   RUNS=100000 ./campaign.sh fen # one target, a short run
#   MAX_TIME=300 ./campaign.sh    # at most five minutes a target
# An input that runs longer than TIMEOUT seconds (default 25: generous, for a loaded machine)
# counts as a hang.
set -uo pipefail
cd "$(dirname "$0")"
RUNS=${RUNS:-10000000}
MAX_TIME=${MAX_TIME:-0}
TIMEOUT=${TIMEOUT:-25}
targets=("$@")
# The quick targets first.
[ ${#targets[@]} -gt 0 ] || targets=(frame_decoder proto_bincode time_control proto_json rule_options
  server_config fen tournament moves bfen bpgn)
cargo fuzz build -s none
for t in "${targets[@]}"; do
  mkdir -p "work/$t"
  echo "== $t: $RUNS runs" >&2
  cargo fuzz run -s none "$t" "work/$t" "corpus/$t" -- \
    -runs="$RUNS" -max_total_time="$MAX_TIME" -timeout="$TIMEOUT" -print_final_stats=1 >>"work/$t.log" 2>&1
  echo "   exit $?: $(grep -E '^#[0-9]+' "work/$t.log" | tail -1)" >&2
done
