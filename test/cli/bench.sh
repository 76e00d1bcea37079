#!/usr/bin/env bash
# fxc bench: the unfused and fused variants timed in turns (as many runs each), their statistics
# ordered as statistics must be (min ≤ p50 ≤ p90 ≤ p99 ≤ max, min ≤ mean ≤ max, std ≥ 0),
# throughput = batch / p50, the speedup the ratio of the p50s; --duration keeps timing until the
# time has passed; as text and as JSON (numbers as numbers).
#   bench.sh FXC
set -u
fxc=$1
fail() { echo "FAIL: $*"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$fxc" bench -q testdata/models/resnet18_narrow.onnx --pass conv-bn --runs 3 --warmup 1 --batch 2 \
  --format json >"$work/b.json" || fail "bench failed"
# JSON checked with awk on its one-number-per-line layout (CI has no python).
field() {  # VARIANT KEY
  awk -v v="\"$1\": {" -v k="\"$2\":" '$0 ~ v { inside = 1 } inside && index($0, k) { gsub(/[,]/, "", $2); print $2; exit }' "$work/b.json"
}
for variant in unfused fused; do
  for key in runs mean_ms std_ms min_ms p50_ms median_ms p90_ms p99_ms max_ms per_second; do
    value=$(field $variant $key)
    [[ "$value" =~ ^[0-9.e+-]+$ ]] || fail "$variant.$key is not a number: '$value'"
  done
  [ "$(field $variant runs)" = 3 ] || fail "$variant: not 3 runs"
  awk -v min="$(field $variant min_ms)" -v p50="$(field $variant p50_ms)" -v p90="$(field $variant p90_ms)" \
    -v p99="$(field $variant p99_ms)" -v max="$(field $variant max_ms)" -v mean="$(field $variant mean_ms)" \
    -v std="$(field $variant std_ms)" -v rate="$(field $variant per_second)" -v median="$(field $variant median_ms)" \
    'BEGIN { exit !(min <= p50 && p50 <= p90 && p90 <= p99 && p99 <= max && min <= mean && mean <= max &&
                    std >= 0 && median == p50 && (rate * p50 / 2000 - 1) ^ 2 < 1e-6) }' ||
    fail "$variant: statistics out of order: $(cat "$work/b.json")"
done
grep -q '"batch": 2,' "$work/b.json" || fail "no integer batch in the JSON"
speedup=$(awk '/"speedup":/ { gsub(/,/, "", $2); print $2 }' "$work/b.json")
awk -v s="$speedup" -v a="$(field unfused p50_ms)" -v b="$(field fused p50_ms)" \
  'BEGIN { exit !((s * b / a - 1) ^ 2 < 1e-6) }' || fail "speedup $speedup is not the ratio of the p50s"
text=$("$fxc" bench -q testdata/models/resnet18_narrow.onnx --runs 3 -O0) || fail "bench -O0 failed"
head -1 <<<"$text" | tr -s ' ' | grep -q '^variant runs mean ms std ms min ms p50 ms p90 ms p99 ms max ms per second$' ||
  fail "unexpected header: $text"
grep -q '^unfused  *3  ' <<<"$text" || fail "unexpected row: $text"
grep -q '^fused' <<<"$text" && fail "fused timing with -O0 and without --pass"
# Without --pass: the graph as written against the graph after the execution pipeline, whose
# passes -v lists.
"$fxc" bench -v testdata/models/resnet18_narrow.onnx --runs 2 >"$work/out" 2>"$work/err" ||
  fail "bench without passes failed"
grep -q '^fused  *2  ' "$work/out" || fail "no optimized timing without --pass: $(cat "$work/out")"
for pass in quant-fold-weights quant-lower simplify conv-bn conv-add-relu conv-relu conv-act; do
  grep -q "fxc: $pass: " "$work/err" || fail "-v does not list $pass: $(cat "$work/err")"
done
# --optimized-only: the graph after the passes alone (no "unfused" variant, no speedup); with -O0
# and no --pass there is no such graph: a usage error, one line, exit 2.
"$fxc" bench -q testdata/models/resnet18_narrow.onnx --runs 3 --warmup 1 --optimized-only \
  --format json >"$work/b.json" || fail "--optimized-only failed"
[ "$(field fused runs)" = 3 ] || fail "--optimized-only: not 3 fused runs: $(cat "$work/b.json")"
grep -q '"unfused"\|"speedup"' "$work/b.json" && fail "--optimized-only timed the graph as written"
text=$("$fxc" bench -q testdata/models/resnet18_narrow.onnx --runs 2 --optimized-only) ||
  fail "--optimized-only (text) failed"
grep -q '^fused  *2  ' <<<"$text" && ! grep -q '^unfused\|^speedup' <<<"$text" ||
  fail "--optimized-only (text): $text"
"$fxc" bench testdata/models/resnet18_narrow.onnx -O0 --optimized-only >"$work/out" 2>"$work/err"
[ $? = 2 ] && [ ! -s "$work/out" ] && [ "$(wc -l <"$work/err")" = 1 ] &&
  grep -q 'optimized-only' "$work/err" || fail "-O0 --optimized-only: $(cat "$work/err")"
# --duration: at least that long in timed runs (0.3 s here), more runs than --runs asked for.
start=$(date +%s%N)
"$fxc" bench -q testdata/models/seed_three_adds.onnx --runs 1 --warmup 0 --duration 0.3 --format json \
  >"$work/b.json" || fail "--duration failed"
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
[ "$elapsed_ms" -ge 300 ] && [ "$(field unfused runs)" -gt 1 ] ||
  fail "--duration 0.3 did not keep timing (${elapsed_ms} ms): $(cat "$work/b.json")"
# A model on stdin is read once and traced twice (the fused copy): a pipe cannot be read again.
"$fxc" bench -q --pass conv-bn --runs 1 --warmup 0 <testdata/models/resnet18_narrow.onnx >/dev/null ||
  fail "bench --pass with the model on stdin"
# Progress: one line rewritten in place on a terminal (`script` gives fxc one), erased at the end;
# nothing when stderr is not a terminal, or with -q.
"$fxc" bench testdata/models/seed_three_adds.onnx --runs 1 --warmup 0 --duration 1.5 2>"$work/err" >/dev/null
grep -q "timing:" "$work/err" && fail "a progress line without a terminal: $(cat "$work/err")"
if command -v script >/dev/null; then
  script -qc "$fxc bench testdata/models/seed_three_adds.onnx --runs 1 --warmup 0 --duration 1.5" \
    /dev/null >"$work/tty.txt" 2>&1
  grep -q $'\rfxc: timing: [0-9]* turns' "$work/tty.txt" || fail "no progress line on a terminal"
  grep -q $'\r\033\[K' "$work/tty.txt" || fail "the progress line is not erased at the end"
  script -qc "$fxc bench -q testdata/models/seed_three_adds.onnx --runs 1 --warmup 0 --duration 1.5" \
    /dev/null >"$work/tty.txt" 2>&1
  grep -q "timing:" "$work/tty.txt" && fail "a progress line despite -q"
fi
echo ok
