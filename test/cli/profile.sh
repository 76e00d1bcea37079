#!/usr/bin/env bash
# fxc profile: the seed's table (Op type, Op, Average runtime (s), Pct total runtime) with one
# row per call node, each percentage the node's share of the run, --sort slowest first, and JSON.
#   profile.sh FXC
set -u
fxc=$1
model=testdata/models/resnet18_narrow.onnx
fail() { echo "FAIL: $*"; exit 1; }
out=$("$fxc" profile "$model" --runs 2 --sort --threads 1) || fail "profile failed"
head -1 <<<"$out" | grep -q '^Op type  *Op  *Average runtime (s)  Pct total runtime$' || fail "header: $(head -1 <<<"$out")"
rows=$(grep -c '^call_' <<<"$out")
calls=$("$fxc" trace "$model" | grep -c '^call_')
[ "$rows" = "$calls" ] || fail "$rows rows for $calls call nodes"
# Each percentage is the node's mean over the run's mean (timing-independent check): they sum to
# the nodes' share of the total, at most 100 (the rest is the interpreter's own time).
awk '/^call_/ { t += $(NF-1); p += $NF } /^Total/ { total = $(NF-1) }
     END { share = 100 * t / total; d = share - p; if (d < 0) d = -d; exit !(p <= 100.5 && d <= 0.01 * share + 0.01) }' \
  <<<"$out" || fail "percentages do not add up"
awk '/^call_/ { if (seen && $(NF-1) > prev * 1.0000001) bad = 1; prev = $(NF-1); seen = 1 } END { exit bad }' <<<"$out" ||
  fail "--sort is not slowest first"
tail -1 <<<"$out" | grep -q '^Total (mean of 2 runs): ' || fail "no total"
"$fxc" profile "$model" --runs 1 --format json | grep -q '"mean_total_s"' || fail "no JSON"
echo ok
