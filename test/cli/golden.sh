#!/usr/bin/env bash
# Runs fxc and compares its stdout with a golden file; FXC_UPDATE_GOLDEN=1 rewrites the file.
#   golden.sh FXC GOLDEN [--stdin FILE] ARGS...
# The command must succeed (exit 0) and print nothing on stderr.
set -u
fxc=$1 golden=$2
shift 2
stdin=/dev/null
if [ "${1:-}" = "--stdin" ]; then
  stdin=$2
  shift 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$fxc" "$@" <"$stdin" >"$work/out" 2>"$work/err"
rc=$?
if [ $rc -ne 0 ] || [ -s "$work/err" ]; then
  echo "FAIL: fxc $* exited $rc"
  cat "$work/err"
  exit 1
fi
if [ "${FXC_UPDATE_GOLDEN:-}" = 1 ]; then
  cp "$work/out" "$golden"
  echo "updated $golden"
  exit 0
fi
if [ ! -f "$golden" ]; then
  echo "FAIL: no golden file $golden (run with FXC_UPDATE_GOLDEN=1 and review the diff)"
  exit 1
fi
diff -u "$golden" "$work/out"
