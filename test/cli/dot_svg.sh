#!/usr/bin/env bash
# fxc trace --dot / --svg on the demo model: the DOT has one node statement per graph node and
# one edge per (input, user) pair, module paths as clusters; --svg draws it with Graphviz's dot
# when that is installed (one SVG node per graph node, written atomically), and otherwise fails
# with one line, exit 1, and no file.
#   dot_svg.sh FXC
set -u
fxc=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
model=testdata/models/resnet18_narrow.onnx
"$fxc" trace "$model" --dot --shapes >"$work/g.dot" || fail "--dot"
head -1 "$work/g.dot" | grep -q '^digraph "resnet18_narrow" {$' || fail "header: $(head -1 "$work/g.dot")"
nodes=$("$fxc" trace "$model" | tail -n +3 | wc -l)
[ "$(grep -c ' \[label="{name=%' "$work/g.dot")" = "$nodes" ] || fail "not one record per node ($nodes)"
# Edges: every name in a node's args, once per node (from the tabular view's args column).
edges=$("$fxc" trace "$model" --format json | awk '/"users": \[/ { inside = 1; next } inside && /\]/ { inside = 0 }
  inside && /"/ { n++ } END { print n }')
[ "$(grep -c ' -> ' "$work/g.dot")" = "$edges" ] || fail "$(grep -c ' -> ' "$work/g.dot") edges, the graph has $edges uses"
grep -q '"layer1_0_conv1" \[label="{name=%layer1_0_conv1|op_code=call_module\\n|target=layer1.0.conv1 (Conv2d)\\n|\[1, 4, 16, 16\] float32\\n}", fillcolor="LemonChiffon1"\];' "$work/g.dot" ||
  fail "conv record: $(grep '"layer1_0_conv1" \[' "$work/g.dot")"
grep -q 'subgraph "cluster_layer1.0" {' "$work/g.dot" || fail "no cluster for layer1.0"
grep -q '"relu" -> "maxpool" \[label="\[1, 4, 32, 32\]"\];' "$work/g.dot" || fail "edge shape: $(grep '"relu" -> ' "$work/g.dot")"
if command -v dot >/dev/null; then
  "$fxc" trace "$model" --svg "$work/g.svg" >"$work/out" 2>"$work/err" || fail "--svg: $(cat "$work/err")"
  [ ! -s "$work/out" ] || fail "--svg alone printed a view"
  grep -q '^<svg' "$work/g.svg" && tail -1 "$work/g.svg" | grep -q '</svg>' || fail "not an SVG"
  [ "$(grep -c '<g id="node' "$work/g.svg")" = "$nodes" ] || fail "SVG nodes: $(grep -c '<g id="node' "$work/g.svg") for $nodes"
  ls -a "$work" | grep -q '^\.g\.svg' && fail "a temporary file was left"
else
  echo "Graphviz's dot is not installed: checking the error"
  "$fxc" trace "$model" --svg "$work/g.svg" 2>"$work/err" >/dev/null
  [ $? = 1 ] || fail "--svg without dot did not exit 1"
  [ "$(wc -l <"$work/err")" = 1 ] && grep -q "needs Graphviz's dot" "$work/err" || fail "error: $(cat "$work/err")"
  [ ! -e "$work/g.svg" ] || fail "a file was written"
fi
echo ok
