#!/usr/bin/env bash
# Every pass file in passes/ registers itself: `fxc passes` lists a pass named after each file
# (conv_bn.cpp ↔ conv-bn), and `fxc passes --format json` agrees.
#   passes_registered.sh FXC
set -u
fxc=$1
listed=$("$fxc" passes) || exit 1
json=$("$fxc" passes --format json) || exit 1
status=0
for file in passes/*.cpp; do
  name=$(basename "$file" .cpp | tr _ -)
  [ "$name" = registry ] && continue
  if ! grep -q "^$name " <<<"$listed"; then echo "FAIL: passes/$(basename "$file") is not registered as '$name'"; status=1; fi
  if ! grep -q "\"name\": \"$name\"" <<<"$json"; then echo "FAIL: '$name' missing from --format json"; status=1; fi
done
exit $status
