# Sourced by the bench_*.sh scripts that time fxc against ONNX Runtime (and PyTorch).
#
# pinned THREADS CMD...: CMD on CPU 0 alone when THREADS is 1, else as it is. A one-thread
# process lands on whichever core the scheduler picks and may move; the two cores of this
# project's VM do not run alike (session 21: ShuffleNet-V2 at batch 1, median of 100 runs on
# core 0 / core 1, fxc 1.05-1.15 / 1.37-1.50 ms, ONNX Runtime 0.87 / 1.14 ms), so an unpinned
# one-thread comparison measured the placement as much as the runtimes.
pinned() {
  local threads=$1
  shift
  if [ "$threads" = 1 ] && command -v taskset >/dev/null; then
    (taskset -p -c 0 "$BASHPID" >/dev/null && "$@")  # a subshell: CMD may be a shell function
  else
    "$@"
  fi
}

# field EXPR: EXPR evaluated on the JSON object read from stdin, printed with DIGITS decimals
# (default 2).
# One line on stderr and exit 1 when stdin is not such JSON (a timing that printed nothing).
field() {
  /usr/bin/python3 -c '
import json, sys
try:
    print("%.*f" % (int(sys.argv[2]), eval(sys.argv[1], {}, json.load(sys.stdin))))
except Exception as e:
    sys.exit("field %s: %s: %s" % (sys.argv[1], type(e).__name__, e))' "$1" "${2:-2}"
}
