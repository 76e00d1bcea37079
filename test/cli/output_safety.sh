#!/usr/bin/env bash
# What -o promises: the input is never overwritten without --in-place, a failed write leaves
# nothing behind, --in-place replaces the file, -o - is a pipe other fxc commands read and never a
# terminal; run --output-dir makes its directory before the run and lists what it wrote; a model
# rejected after it was written (--min-sqnr) leaves the external data file it would replace.
#   output_safety.sh FXC
set -u
fxc=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cp testdata/models/seed_three_adds.onnx "$work/m.onnx"
before=$(md5sum <"$work/m.onnx")

"$fxc" trace "$work/m.onnx" -o "$work/m.onnx" 2>"$work/err"
[ $? = 2 ] || fail "-o onto the input did not exit 2"
grep -q "refusing to overwrite the input" "$work/err" || fail "no reason given: $(cat "$work/err")"
[ "$(md5sum <"$work/m.onnx")" = "$before" ] || fail "the input changed"

"$fxc" trace "$work/m.onnx" -o "$work/no/such/dir/out.onnx" 2>"$work/err"
[ $? = 1 ] || fail "writing into a missing directory did not exit 1"
[ "$(wc -l <"$work/err")" = 1 ] || fail "not one line: $(cat "$work/err")"

"$fxc" trace testdata/models/bad/cycle.onnx -o "$work/out.onnx" 2>/dev/null
[ $? = 1 ] || fail "a bad model did not exit 1"
[ ! -e "$work/out.onnx" ] || fail "a failed run left an output file"
[ -z "$(ls "$work" | grep tmp)" ] || fail "a temporary file was left behind"

"$fxc" trace "$work/m.onnx" -o - --code 2>/dev/null
[ $? = 2 ] || fail "-o - with --code did not exit 2"

"$fxc" trace "$work/m.onnx" --in-place || fail "--in-place failed"
"$fxc" trace "$work/m.onnx" >"$work/after.txt" || fail "the in-place model does not trace"
cmp -s "$work/after.txt" testdata/golden/seed_three_adds.tabular.txt || fail "--in-place changed the graph"

"$fxc" trace testdata/models/resnet18_narrow.onnx -o - | "$fxc" trace -o - | "$fxc" trace --code >"$work/piped.py" ||
  fail "the pipeline failed"
cmp -s "$work/piped.py" testdata/golden/resnet18_narrow.code.py || fail "the pipeline changed the graph"

"$fxc" trace testdata/models/external_data.onnx -o "$work/ext.onnx" --external-data || fail "--external-data failed"
[ -s "$work/ext.onnx.data" ] || fail "no external data file"
"$fxc" trace "$work/ext.onnx" | cmp -s - testdata/golden/external_data.tabular.txt || fail "external data round trip"
# Each tensor is written once: in the data file, not in the model file too (ONNX's checker, which
# --check runs on the written files, rejects a tensor with both).
"$fxc" trace testdata/models/resnet18_narrow.onnx -o "$work/r.onnx" --external-data --check ||
  fail "--external-data --check failed"
[ "$(stat -c %s "$work/r.onnx")" -lt 65536 ] || fail "the weights are in the model file too"
# Removing the Identity leaves one value under two output names, and an input as an output: the
# export passes them through and keeps every output name.
"$fxc" fuse -q testdata/models/passthrough_outputs.onnx --pass identity -o "$work/pass.onnx" --check ||
  fail "passthrough export failed"
"$fxc" trace "$work/pass.onnx" --format json | grep -q '"target": "onnx.Identity"' ||
  fail "no Identity re-created for the second output name"
# Outputs that are not regular files are written in place, never replaced: a device node (made
# with mknod where the tests run as root; else skipped), a FIFO, a symbolic link.
before=$(md5sum <"$work/m.onnx")
if mknod -m 666 "$work/null" c 1 3 2>/dev/null; then
  "$fxc" trace "$work/m.onnx" -o "$work/null" || fail "-o onto a device failed"
  [ -c "$work/null" ] || fail "-o replaced the device node with a regular file"
  mkdir "$work/outs" && mknod -m 666 "$work/outs/out1.npy" c 1 3 &&
    "$fxc" run -q "$work/m.onnx" --output-dir "$work/outs" >/dev/null || fail "run --output-dir onto a device failed"
  [ -c "$work/outs/out1.npy" ] && [ -s "$work/outs/out0.npy" ] || fail "run --output-dir replaced the device node"
  "$fxc" trace "$work/m.onnx" -o "$work/null" --external-data 2>"$work/err"
  [ $? = 1 ] && [ "$(wc -l <"$work/err")" = 1 ] || fail "--external-data onto a device: $(cat "$work/err")"
  [ -c "$work/null" ] && [ ! -e "$work/null.data" ] || fail "--external-data onto a device wrote files"
fi
mkfifo "$work/fifo"
cat "$work/fifo" >"$work/from_fifo.onnx" &
reader=$!
"$fxc" trace "$work/m.onnx" -o "$work/fifo" || fail "-o onto a FIFO failed"
wait $reader
[ -p "$work/fifo" ] || fail "-o replaced the FIFO with a regular file"
"$fxc" trace "$work/from_fifo.onnx" | cmp -s - testdata/golden/seed_three_adds.tabular.txt ||
  fail "what went through the FIFO is not the model"
ln -s target.onnx "$work/link.onnx"  # a link to a file that does not exist yet
"$fxc" trace "$work/m.onnx" -o "$work/link.onnx" || fail "-o onto a dangling link failed"
"$fxc" trace "$work/m.onnx" -o "$work/link.onnx" || fail "-o onto a link failed"
[ -L "$work/link.onnx" ] || fail "-o replaced the symbolic link with a file"
"$fxc" trace "$work/target.onnx" | cmp -s - testdata/golden/seed_three_adds.tabular.txt ||
  fail "the link's target is not the model"
ln -s m.onnx "$work/input_link.onnx"
"$fxc" trace "$work/m.onnx" -o "$work/input_link.onnx" 2>/dev/null
[ $? = 2 ] || fail "-o onto a link to the input did not exit 2"
mkdir "$work/dir"
"$fxc" trace "$work/m.onnx" -o "$work/dir" 2>"$work/err"
[ $? = 1 ] && grep -q "is a directory" "$work/err" || fail "-o onto a directory: $(cat "$work/err")"
# run --output-dir: made with its parents before the run, each file written named on stderr,
# a file in the way refused before running (one line, exit 1).
"$fxc" run "$work/m.onnx" --output-dir "$work/a/b/c" >/dev/null 2>"$work/err" || fail "--output-dir a/b/c"
[ -f "$work/a/b/c/out0.npy" ] && [ -f "$work/a/b/c/out2.npy" ] || fail "--output-dir a/b/c: no files"
grep -q "wrote $work/a/b/c/out0.npy" "$work/err" || fail "the files written are not listed: $(cat "$work/err")"
touch "$work/plain"
"$fxc" run "$work/m.onnx" --output-dir "$work/plain/sub" >"$work/out.txt" 2>"$work/err"
[ $? = 1 ] && [ "$(wc -l <"$work/err")" = 1 ] && grep -q "$work/plain is not a directory" "$work/err" &&
  [ ! -s "$work/out.txt" ] || fail "--output-dir through a file: $(cat "$work/err")"
# -o - onto a terminal is refused (exit 2), as gzip refuses; `script` gives fxc a terminal.
if command -v script >/dev/null; then
  script -qc "$fxc trace $work/m.onnx -o -" /dev/null >"$work/tty.txt" 2>&1
  grep -q "would write a binary model to the terminal" "$work/tty.txt" ||
    fail "-o - to a terminal: $(head -c 300 "$work/tty.txt")"
fi
# A model with external data that is rejected after writing (--min-sqnr runs the written model)
# leaves the data file it would have replaced as it was: the input's with --in-place, an earlier
# output's with -o. Before, the rejection deleted it (a model without its weights).
"$fxc" trace testdata/models/resnet18_narrow.onnx -o "$work/ext_in.onnx" --external-data ||
  fail "--external-data (resnet18_narrow)"
"$fxc" quantize -q "$work/ext_in.onnx" --external-data -o "$work/ext_q.onnx" || fail "quantize --external-data"
for args in "--in-place" "-o $work/ext_q.onnx"; do
  target=$work/ext_in.onnx
  [ "$args" = "--in-place" ] || target=$work/ext_q.onnx
  sums=$(md5sum "$target" "$target.data" | cut -d' ' -f1)
  "$fxc" quantize -q "$work/ext_in.onnx" --preset ort-cpu --external-data $args --min-sqnr 200 2>"$work/err"
  [ $? = 1 ] && grep -q "below --min-sqnr 200: not written" "$work/err" ||
    fail "quantize $args --min-sqnr 200: $(cat "$work/err")"
  [ "$(md5sum "$target" "$target.data" | cut -d' ' -f1)" = "$sums" ] ||
    fail "a rejected model with external data changed $target or its data ($args)"
  "$fxc" run -q "$target" >/dev/null || fail "$target does not run after a rejected write ($args)"
done
[ -z "$(find "$work" -name "*fxc-kept*")" ] || fail "a kept data file was left behind"
# No output lands on a file the model was read from: its external data file given as -o, a model
# read from OUT.data written with --external-data to OUT, OUT.data a link to the input's data,
# --svg naming the input or the output model, a package file linking to the input. Each one
# line, exit 1 (2 for --svg, a usage error); the inputs unchanged. Before, each wrote over them.
mkdir "$work/guard"
cp testdata/models/external_data.onnx testdata/models/external_data.bin "$work/guard/"
cp testdata/models/seed_three_adds.onnx "$work/guard/o.onnx.data"
ln -s external_data.bin "$work/guard/l.onnx.data"
mkdir "$work/guard/pkg" && ln -s ../external_data.onnx "$work/guard/pkg/module.py"
sums=$(cd "$work/guard" && md5sum external_data.onnx external_data.bin o.onnx.data)
g=$work/guard
for case in "1|refusing to write the model|trace $g/external_data.onnx -o $g/external_data.bin" \
            "1|refusing to write the external data|trace $g/o.onnx.data -o $g/o.onnx --external-data" \
            "1|refusing to write the external data|trace $g/external_data.onnx -o $g/l.onnx --external-data" \
            "2|is the input model|trace $g/external_data.onnx --svg $g/external_data.onnx" \
            "2|is the model's output too|trace $g/external_data.onnx --svg $g/y.onnx -o $g/y.onnx" \
            "1|refusing to write the package file|codegen $g/external_data.onnx -o $g/pkg --force"; do
  IFS='|' read -r rc want args <<<"$case"
  "$fxc" $args >/dev/null 2>"$work/err"
  [ $? = "$rc" ] && [ "$(wc -l <"$work/err")" = 1 ] && grep -q "$want" "$work/err" ||
    fail "fxc $args: $(cat "$work/err")"
done
[ "$(cd "$work/guard" && md5sum external_data.onnx external_data.bin o.onnx.data)" = "$sums" ] ||
  fail "a refused write changed an input"
[ ! -e "$g/y.onnx" ] || fail "--svg onto the output model wrote the model"
# A text view that cannot be written (a full device, a closed stdout) fails: exit 1, one line.
if [ -w /dev/full ]; then
  "$fxc" trace --code "$work/m.onnx" >/dev/full 2>"$work/err"
  [ $? = 1 ] && [ "$(wc -l <"$work/err")" = 1 ] && grep -q "cannot write to stdout" "$work/err" ||
    fail "trace --code > /dev/full: $(cat "$work/err")"
fi
"$fxc" summary "$work/m.onnx" >&- 2>"$work/err"
[ $? = 1 ] && grep -q "cannot write to stdout" "$work/err" || fail "summary >&-: $(cat "$work/err")"
# A run whose second output cannot be written leaves nothing of its own: not the first output
# (an earlier file of that name stays as it was), not the saved inputs, no summary on stdout.
mkdir -p "$work/part/p1.npy" && echo old >"$work/part/y.npy"
"$fxc" run testdata/models/multi_output.onnx --output-dir "$work/part" --save-inputs "$work/part_in" \
  >"$work/out.txt" 2>"$work/err"
[ $? = 1 ] && [ "$(wc -l <"$work/err")" = 1 ] && grep -q "p1.npy: is a directory" "$work/err" ||
  fail "run onto an output directory: $(cat "$work/err")"
[ "$(cat "$work/part/y.npy")" = old ] || fail "a failed run replaced an earlier output file"
[ -z "$(ls "$work/part_in")" ] && [ ! -s "$work/out.txt" ] ||
  fail "a failed run left its inputs or a summary: $(ls "$work/part_in") $(cat "$work/out.txt")"
[ -z "$(find "$work" -name "*.tmp*")" ] || fail "a temporary file was left behind"
[ "$(md5sum <"$work/m.onnx")" = "$before" ] || fail "the input changed"
echo ok
