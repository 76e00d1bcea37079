#!/usr/bin/env bash
# When the machine fails under fxc: the disk fills while -o is written (ulimit -f), the process
# is interrupted (SIGINT, SIGTERM, SIGHUP) or killed (SIGKILL) mid-write, the output directory
# disappears, two fxc write the same file at once, the input shrinks while it is read. Always: the
# input untouched, nothing partial under the final name (after SIGKILL: the old file), no
# temporary left (but after SIGKILL), one error line and exit 1, or death by the signal.
#   faults.sh FXC MAKE_SYNTHETIC
set -u
fxc=$1
make=$2
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
small=testdata/models/resnet18_narrow.onnx
before=$(md5sum <"$small")
temporaries() { ls -A "$1" 2>/dev/null | grep -c '\.tmp\.' ; }

# The disk fills: a 16 kB file size limit under a model of ~200 kB.
(ulimit -f 16; exec "$fxc" fuse -q "$small" --pass conv-bn -o "$work/full.onnx") 2>"$work/err"
[ $? = 1 ] || fail "a full disk did not exit 1"
[ "$(wc -l <"$work/err")" = 1 ] && grep -q "cannot write $work/full.onnx: File too large" "$work/err" ||
  fail "full disk: $(cat "$work/err")"
[ ! -e "$work/full.onnx" ] && [ "$(temporaries "$work")" = 0 ] || fail "full disk left $(ls "$work")"

# A model whose write takes a while (400 MB of weights, written inline), so that a signal can land
# mid-write: fxc runs in the background until its temporary appears, then gets the signal. If the
# write finishes first (a fast disk), the attempt is repeated.
"$make" big 400000000 "$work/big.onnx" || fail "cannot make the big model"
# mid_write OUT_DIR ACTION: starts fxc writing OUT_DIR/out.onnx, runs ACTION (a function taking the
# pid) once the temporary exists; sets $rc to fxc's exit status. Returns 1 when it never caught
# the write in progress.
mid_write() {
  local dir=$1 action=$2
  for attempt in 1 2 3 4 5; do
    "$fxc" fuse -q "$work/big.onnx" --pass identity -o "$dir/out.onnx" 2>"$work/err" &
    local pid=$!
    local caught=0
    for _ in $(seq 1 2000); do
      if [ "$(temporaries "$dir")" != 0 ]; then caught=1; break; fi
      kill -0 $pid 2>/dev/null || break
      sleep 0.001
    done
    if [ $caught = 1 ]; then
      $action $pid
      wait $pid
      rc=$?
      return 0
    fi
    wait $pid
    rm -f "$dir/out.onnx"
  done
  return 1
}
for signal in INT TERM HUP; do
  mkdir -p "$work/$signal"
  send() { kill -s "$signal" "$1"; }
  mid_write "$work/$signal" send || fail "SIG$signal: never caught the write in progress"
  code=$(kill -l "$signal")
  [ "$rc" = $((128 + code)) ] || fail "SIG$signal: exit $rc, not death by the signal"
  [ -z "$(ls -A "$work/$signal")" ] || fail "SIG$signal left $(ls -A "$work/$signal")"
done
# SIGKILL: nothing can clean up, but the final name keeps the old file, whole.
mkdir -p "$work/KILL"
cp "$small" "$work/KILL/out.onnx"
old=$(md5sum <"$work/KILL/out.onnx")
kill9() { kill -KILL "$1"; }
mid_write "$work/KILL" kill9 || fail "SIGKILL: never caught the write in progress"
[ "$(md5sum <"$work/KILL/out.onnx")" = "$old" ] || fail "SIGKILL: the old file under the final name changed"
# The output directory disappears mid-write: the rename fails, one line, exit 1.
mkdir -p "$work/gone"
remove_dir() { rm -rf "$work/gone"; }
mid_write "$work/gone" remove_dir || fail "vanishing directory: never caught the write in progress"
[ "$rc" = 1 ] || fail "vanishing directory: exit $rc"
[ "$(wc -l <"$work/err")" = 1 ] && grep -q "cannot write $work/gone/out.onnx" "$work/err" ||
  fail "vanishing directory: $(cat "$work/err")"
# The input shrinks while fxc reads it (its weights are mapped): one line, exit 1, no output.
mkdir -p "$work/shrink"
shrink() { truncate -s 0 "$work/big.onnx.data"; }
mid_write "$work/shrink" shrink || fail "shrinking input: never caught the write in progress"
if [ "$rc" != 0 ]; then  # the pages may all have been read before the truncation: then it passes
  [ "$rc" = 1 ] || fail "shrinking input: exit $rc"
  [ "$(wc -l <"$work/err")" = 1 ] && grep -q "shrank while fxc was reading it" "$work/err" ||
    fail "shrinking input: $(cat "$work/err")"
  [ -z "$(ls -A "$work/shrink")" ] || fail "shrinking input left $(ls -A "$work/shrink")"
fi
rm -f "$work/big.onnx" "$work/big.onnx.data"

# Two fxc write the same file at once, five times: both succeed, the file is one whole model
# (it loads, and equals what one fxc alone writes), no temporary is left.
"$fxc" fuse -q "$small" --pass conv-bn -o "$work/alone.onnx" || fail "fuse alone"
for round in 1 2 3 4 5; do
  "$fxc" fuse -q "$small" --pass conv-bn -o "$work/same.onnx" & a=$!
  "$fxc" fuse -q "$small" --pass conv-bn -o "$work/same.onnx" & b=$!
  wait $a || fail "concurrent writer A failed (round $round)"
  wait $b || fail "concurrent writer B failed (round $round)"
  cmp -s "$work/same.onnx" "$work/alone.onnx" || fail "concurrent writes left another file (round $round)"
  [ "$(temporaries "$work")" = 0 ] || fail "concurrent writes left a temporary"
done
[ "$(md5sum <"$small")" = "$before" ] || fail "the input changed"
echo ok
