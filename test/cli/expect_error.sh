#!/usr/bin/env bash
# Runs fxc on bad input and checks what a user sees: the exit code, exactly one stderr line
# "fxc: error: ..." containing TEXT, nothing on stdout, and no file left in the working directory.
#   expect_error.sh FXC CODE TEXT [--stdin FILE] ARGS...
set -u
fxc=$1 code=$2 text=$3
shift 3
stdin=/dev/null
if [ "${1:-}" = "--stdin" ]; then
  stdin=$2
  shift 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
before=$(ls -A)
"$fxc" "$@" <"$stdin" >"$work/out" 2>"$work/err"
rc=$?
after=$(ls -A)
fail() {
  echo "FAIL: fxc $*: $1"
  echo "--- stderr:"; cat "$work/err"
  exit 1
}
[ "$rc" = "$code" ] || fail "exit code $rc, expected $code"
[ "$(wc -l <"$work/err")" = 1 ] || fail "stderr is not exactly one line"
grep -q '^fxc: error: ' "$work/err" || fail "stderr does not start with 'fxc: error: '"
grep -qF -- "$text" "$work/err" || fail "stderr does not mention '$text'"
[ ! -s "$work/out" ] || fail "stdout is not empty"
[ "$before" = "$after" ] || fail "files were left behind"
exit 0
