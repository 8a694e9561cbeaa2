#!/usr/bin/env bash
# The suite under load (issue 45): ./scripts/test in a fresh clone of COMMIT, one run after
# the other, with `stress-ng --cpu 2` (Debian: apt-get install stress-ng) busy beside them.
#   benchmarks/loaded_runs.sh COMMIT [RUNS]     e.g. benchmarks/loaded_runs.sh HEAD 3
# Logs: /tmp/loaded-N.log; one line per run in /tmp/loaded-summary.log.
set -u
commit="$1"
runs="${2:-3}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
stress-ng --cpu 2 --timeout 10800s >/tmp/stress.log 2>&1 &
stress=$!
for i in $(seq 1 "$runs"); do
  rm -rf "/tmp/loaded-$i"
  git clone -q "$repo" "/tmp/loaded-$i" && git -C "/tmp/loaded-$i" checkout -q "$commit"
  start=$(date +%s)
  (cd "/tmp/loaded-$i" && ./scripts/test -p no:cacheprovider >"/tmp/loaded-$i.log" 2>&1)
  echo "run $i of $commit: exit $? after $(($(date +%s) - start)) s" | tee -a /tmp/loaded-summary.log
done
kill "$stress"
