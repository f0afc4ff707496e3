#!/usr/bin/env bash
# The whole e2e suite, run again and again while busy loops compete with it
# for the cores: a test that depends on timing fails here, not in CI.
#   bench/flake.sh [RUNS] [BUSY_LOOPS]   (defaults: 20 runs, 2 loops)
# Needs `make build` first; reads ../shared as the tests do. Prints one
# line per run and a summary; exits non-zero when any run failed, leaving
# each failed run's output in build/flake/run-N.log.
set -u
cd "$(dirname "$0")/.."
runs=${1:-20}
busy=${2:-2}
binary=${INGOT_BINARY:-$PWD/build/release/ingot}
[ -x "$binary" ] || { echo "flake.sh: no $binary; run make build first" >&2; exit 2; }
logs=build/flake
mkdir -p "$logs"

loops=()
for _ in $(seq "$busy"); do
  (while :; do :; done) &
  loops+=($!)
done
trap 'kill "${loops[@]}" 2>/dev/null' EXIT

failed=0
for run in $(seq "$runs"); do
  start=$(date +%s)
  if (cd tests/e2e && INGOT_BINARY="$binary" node --test >"../../$logs/run-$run.log" 2>&1); then
    echo "run $run: pass ($(( $(date +%s) - start )) s)"
    rm -f "$logs/run-$run.log"
  else
    failed=$((failed + 1))
    echo "run $run: FAIL ($(( $(date +%s) - start )) s), see $logs/run-$run.log"
    grep -E '^not ok|^# fail' "$logs/run-$run.log" | head -5
  fi
done
echo "flake.sh: $failed of $runs runs failed with $busy busy loops"
[ "$failed" -eq 0 ]
