#!/usr/bin/env bash
# Plants each bug of scripts/mutants.txt in a scratch copy of the committed tree, rebuilds (ccache,
# Ninja) and runs ctest; prints a table of which test caught it, or SURVIVED. A survivor is a test
# the suite is missing. Exit 1 if any survives, or if a mutant's text is not found or it does not
# build (the table is out of date). Needs python3 (`scripts/setup.sh python`); takes about a minute per mutant.
#   scripts/mutants.sh [--check] [REGEX]    --check: only verify that every text is found;
#                                           REGEX: only the bugs whose description matches
set -euo pipefail
cd "$(dirname "$0")/.."
check_only=0
[ "${1:-}" = --check ] && { check_only=1; shift; }
pattern=${1:-}
./scripts/setup.sh python >/dev/null
table=scripts/mutants.txt
scratch=$(mktemp -d /tmp/fxc-mutants.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
git archive HEAD | tar -x -C "$scratch"
cp "$table" "$scratch/$table"  # the table as it is here, committed or not
apply() {  # FILE OLD NEW: exactly one occurrence replaced, else exit 3
  python3 - "$@" <<'PY'
import sys
path, old, new = sys.argv[1:4]
text = open(path).read()
if text.count(old) != 1:
    sys.exit(3)
open(path, "w").write(text.replace(old, new))
PY
}
if [ $check_only = 0 ]; then
  echo "building the scratch copy" >&2
  (cd "$scratch" && ./scripts/build.sh build >/dev/null)
  (cd "$scratch/build" && ctest -j2 >/dev/null) || { echo "the unmutated tree fails its tests" >&2; exit 1; }
fi
survivors=0 missing=0
printf '| planted bug | file | caught by |\n| --- | --- | --- |\n'
while IFS=$'\t' read -r file old new what; do
  [ -z "$file" ] || [ "${file:0:1}" = "#" ] && continue
  [ -n "$pattern" ] && ! [[ "$what" =~ $pattern ]] && continue
  cp "$scratch/$file" "$scratch/$file.orig"
  if ! apply "$scratch/$file" "$old" "$new"; then
    printf '| %s | `%s` | TEXT NOT FOUND |\n' "$what" "$file"
    missing=$((missing + 1))
    continue
  fi
  if [ $check_only = 1 ]; then
    mv "$scratch/$file.orig" "$scratch/$file"
    printf '| %s | `%s` | (text found) |\n' "$what" "$file"
    continue
  fi
  caught=""
  # </dev/null: nothing a build or a test runs may read the table this loop reads.
  if ! (cd "$scratch" && ./scripts/build.sh build </dev/null >/dev/null 2>&1); then
    # Not a test's catch: a mutant that does not compile tests nothing.
    caught="DOES NOT BUILD (rewrite the mutant)"
    missing=$((missing + 1))
  else
    # The names under "The following tests FAILED:" (not the skipped ones listed before it).
    failed=$(cd "$scratch/build" && { ctest -j2 </dev/null 2>/dev/null || true; } |
      sed -n '/tests FAILED:/,$s/^[[:space:]]*[0-9]* - \([^ ]*\) (.*/\1/p' | head -4 | paste -sd, -)
    caught=${failed:-}
  fi
  mv "$scratch/$file.orig" "$scratch/$file"
  touch "$scratch/$file"  # newer than the mutant's objects, so that the next build recompiles it
  if [ -z "$caught" ]; then
    caught="**SURVIVED**"
    survivors=$((survivors + 1))
  fi
  printf '| %s | `%s` | %s |\n' "$what" "$file" "$caught"
done <"$scratch/$table"  # the copy: editing the table meanwhile cannot disturb the loop
(( survivors == 0 && missing == 0 ))
