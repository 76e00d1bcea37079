#!/usr/bin/env bash
# The module.py `fxc ARGS...` writes into a package directory equals testdata/golden/<file>;
# FXC_UPDATE_GOLDEN=1 rewrites the golden file. ARGS name the directory as @DIR@.
#   codegen_golden.sh FXC GOLDEN ARGS...
set -u
fxc=$1 golden=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
args=()
for arg in "$@"; do args+=("${arg//@DIR@/$work/pkg}"); done
if ! "$fxc" -q "${args[@]}" >/dev/null 2>"$work/err"; then
  echo "FAIL: fxc $* failed"
  cat "$work/err"
  exit 1
fi
if [ "${FXC_UPDATE_GOLDEN:-}" = 1 ]; then
  cp "$work/pkg/module.py" "$golden"
  echo "updated $golden"
  exit 0
fi
diff -u "$golden" "$work/pkg/module.py"
