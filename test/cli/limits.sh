#!/usr/bin/env bash
# Resource limits: what a model asks for beyond reason is refused with one clear line and exit 1,
# in bounded time and memory (ulimit -v 4 GB here; each case takes well under a second): tensors
# of 10^12 elements (an initializer, an input, a ConstantOfShape), a cycle through a subgraph, an
# attribute listing 2·10^6 ints, a Loop that never ends, a 10^5-deep chain (traced and run), and external data that a
# symbolic link leads out of the model's directory (never read; a link inside it is followed).
#   limits.sh FXC MAKE_SYNTHETIC
set -u
fxc=$1
make=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
limits=testdata/models/limits
# The memory bound: 4 GB of address space, except under AddressSanitizer (its shadow memory
# reserves terabytes of address space; it has its own allocation limits).
vmem=4000000
ldd "$fxc" 2>/dev/null | grep -q libasan && vmem=unlimited
# refused EXPECTED_TEXT FXC_ARGS...: exit 1, one line naming the problem.
refused() {
  local want=$1
  shift
  (ulimit -v $vmem; exec timeout 60 "$fxc" "$@") >/dev/null 2>"$work/err"
  local rc=$?
  [ $rc = 1 ] || fail "fxc $*: exit $rc (want 1): $(head -c 300 "$work/err")"
  [ "$(wc -l <"$work/err")" = 1 ] || fail "fxc $*: not one line: $(head -c 300 "$work/err")"
  grep -qF -- "$want" "$work/err" || fail "fxc $*: $(cat "$work/err") (want: $want)"
}
refused "initializer 'w': holds 4 bytes but its shape of float32 needs 4000000000000" trace $limits/huge_initializer.onnx
refused "input x: shape [1000000, 1000000] of float32 needs 4000.0 GB" run $limits/huge_input.onnx
refused "input x: shape [1000000, 1000000] of float32 needs 4000.0 GB" quantize $limits/huge_input.onnx -o "$work/q.onnx"
refused "node 'constant_of_shape': shape [1000000, 1000000] of float32 needs 4000.0 GB" run $limits/huge_constant_of_shape.onnx
refused "node 'constant_of_shape': shape [1000000, 1000000] of float32 needs 4000.0 GB" summary $limits/huge_constant_of_shape.onnx
refused "graph has a cycle through node 'branch' (If)" trace $limits/subgraph_cycle.onnx
# const-fold leaves a 4 TB constant unfolded (past max-bytes), and the model still writes.
"$fxc" fuse -q $limits/huge_constant_of_shape.onnx --pass simplify -o "$work/s.onnx" || fail "simplify a huge ConstantOfShape"
"$fxc" trace "$work/s.onnx" | grep -q "constant_of_shape" || fail "the ConstantOfShape was folded"
[ ! -e "$work/q.onnx" ] || fail "a refused quantize wrote its output"
# A Loop without end on constant inputs: const-fold leaves it (it would never return), so
# simplify, trace and lint finish; running it is the model's own endless loop.
(exec timeout 60 "$fxc" fuse -q $limits/endless_loop.onnx --pass simplify -o "$work/l.onnx") ||
  fail "simplify of an endless Loop did not finish"
"$fxc" trace "$work/l.onnx" | grep -q "onnx.Loop" || fail "the endless Loop was folded"
# Run, it is refused at once: no trip count, and the body passes cond = true on unchanged.
refused "onnx.Loop: the loop never ends: no trip count, and the body passes its condition (true) on unchanged" run $limits/endless_loop.onnx
refused "the loop never ends" quantize $limits/endless_loop.onnx -o "$work/q.onnx"

"$make" attr 2097152 "$work/attr.onnx" || fail "cannot make the attribute model"
refused "node 'transpose' (Transpose): attribute 'perm' lists 2097152 values; fxc reads at most 1048576" trace "$work/attr.onnx"

"$make" chain 100000 "$work/chain.onnx" || fail "cannot make the chain"
(ulimit -v $vmem; exec timeout 60 "$fxc" run "$work/chain.onnx") >"$work/out" 2>"$work/err" ||
  fail "a 10^5-deep chain did not run: $(head -c 300 "$work/err")"
grep -q "float32 \[1, 16\]" "$work/out" || fail "chain output: $(cat "$work/out")"

# External data through symbolic links: out of the folder refused, inside it followed.
mkdir -p "$work/model" "$work/elsewhere"
cp testdata/models/external_data.onnx "$work/model/"
cp testdata/models/external_data.bin "$work/elsewhere/"
ln -s ../elsewhere/external_data.bin "$work/model/external_data.bin"
refused "leads outside the model's directory (through a symbolic link)" trace "$work/model/external_data.onnx"
ln -s /etc/hostname "$work/hostname"
rm "$work/model/external_data.bin"
ln -s ../hostname "$work/model/external_data.bin"
refused "leads outside the model's directory" trace "$work/model/external_data.onnx"
rm "$work/model/external_data.bin"
mkdir -p "$work/model/weights"
cp testdata/models/external_data.bin "$work/model/weights/real.bin"
ln -s weights/real.bin "$work/model/external_data.bin"
"$fxc" run "$work/model/external_data.onnx" >"$work/linked" || fail "a link inside the folder was refused"
"$fxc" run testdata/models/external_data.onnx >"$work/direct" || fail "external_data.onnx"
cmp -s "$work/linked" "$work/direct" || fail "through a link inside the folder: other outputs"
echo ok
