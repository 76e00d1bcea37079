#!/usr/bin/env bash
# fxc profile: the seed's table (Op type, Op, Average runtime (s), Pct total runtime) with one
# row per call node, each percentage the node's share of the run, --sort slowest first, and JSON.
#   profile.sh FXC
set -u
fxc=$1
model=testdata/models/resnet18_narrow.onnx
fail() { echo "FAIL: $*"; exit 1; }
out=$("$fxc" profile "$model" --runs 2 --sort --threads 1 -O0) || fail "profile failed"
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
# --group-by type: one row per module type or function, counting the nodes that trace shows of
# it, the times summed (so the shares still add to at most 100), slowest first; --unit ms.
out=$("$fxc" profile "$model" --runs 2 --group-by type --unit ms --threads 1 -O0) ||
  fail "--group-by type failed"
head -1 <<<"$out" | grep -q '^Type  *Nodes  *Total runtime (ms)  Pct total runtime$' || fail "grouped header: $(head -1 <<<"$out")"
types=$("$fxc" trace "$model" --format json |
  awk -F'"' '/"path": / { path = $4 } /"type": / && path != "" { print path, $4; path = "" }')
for type in Conv2d BatchNorm2d ReLU operator.add; do
  counted=$(awk -v t="$type" '$1 == t { print $2 }' <<<"$out")
  traced=$("$fxc" trace "$model" | awk -v t="$type" -v types="$types" '
    BEGIN { n = split(types, w, /[ \n]/); for (k = 1; k < n; k += 2) type[w[k]] = w[k + 1] }
    ($1 == "call_function" && $3 == t) || ($1 == "call_module" && type[$3] == t) { c++ }
    END { print c + 0 }')
  [ "$counted" = "$traced" ] || fail "$type: $counted nodes counted, the model has $traced"
done
awk 'NR > 2 && NF == 4 { p += $4; if (seen && $3 > prev * 1.0000001) bad = 1; prev = $3; seen = 1 }
     END { exit !(p <= 100.5 && !bad) }' <<<"$out" || fail "grouped rows: shares or order wrong"
tail -1 <<<"$out" | grep -q '^Total (mean of 2 runs): .* ms$' || fail "no total in ms"
# By default the graph after the execution pipeline is profiled: BatchNorm folded into the
# convolutions, ReLUs fused (what run executes).
out=$("$fxc" profile "$model" --runs 1 --group-by type) || fail "profile (optimized) failed"
grep -q '^ConvReLU2d ' <<<"$out" || fail "no fused convolutions in the optimized profile: $out"
grep -q '^BatchNorm2d ' <<<"$out" && fail "BatchNorm2d left in the optimized profile: $out"
echo ok
