#!/usr/bin/env bash
# Compares fxc's views of a torch.onnx export with what torch.fx prints for the same torchvision
# model, exactly: `--code` with GraphModule.code, `--graph` with str(graph), `--print-tabular`
# with print_tabular, but for the placeholder's name (the ONNX input's, where torch.fx has the
# forward parameter's) and the call_function target text (fxc's qualified name, where torch.fx
# prints the function's repr with its memory address; the tabular's cells are compared, since the
# column widths follow the text).
# A module an ONNX export cannot contain (Dropout in eval mode) is named with --absent: its line
# leaves the reference, and its users read its input instead.
#   torchfx_exact.sh FXC MODEL code|graph|tabular REFERENCE [--absent TARGET]...
set -u
fxc=$1 model=$2 view=$3 reference=$4
shift 4
absent=()
while [ $# -gt 0 ]; do
  case $1 in
    --absent) absent+=("$2"); shift 2 ;;
    *) echo "unknown option $1"; exit 2 ;;
  esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$fxc" trace "$model" --print-tabular >"$work/tabular.txt" || exit 1
mine=$(awk -F '  +' '$1 == "placeholder" { print $2; exit }' "$work/tabular.txt")
case $view in
  code) "$fxc" trace "$model" --code >"$work/fxc.txt" || exit 1 ;;
  graph) "$fxc" trace "$model" --graph >"$work/fxc.txt" || exit 1 ;;
  tabular) cp "$work/tabular.txt" "$work/fxc.txt" ;;
  *) echo "unknown view $view"; exit 2 ;;
esac
theirs=$(grep -m1 -oE '%[A-Za-z_0-9]+ : torch.Tensor \[#users=[0-9]+\] = placeholder|^def forward\(self, [A-Za-z_0-9]+|^placeholder +[A-Za-z_0-9]+' "$reference" |
         sed -E 's/^%([A-Za-z_0-9]+) .*/\1/; s/^def forward\(self, //; s/^placeholder +//')
if [ -z "$mine" ] || [ -z "$theirs" ]; then
  echo "FAIL: no placeholder in fxc's output or in $reference"
  exit 1
fi
# The reference as fxc would print it: fxc's placeholder name; print() ends the text with a newline.
{ cat "$reference"; [ -n "$(tail -c1 "$reference")" ] && echo; } |
  sed -E "s/(^|[^A-Za-z0-9_%.])$theirs([^A-Za-z0-9_]|\$)/\1$mine\2/g; s/%$theirs([^A-Za-z0-9_]|\$)/%$mine\1/g; s/target=$theirs\]/target=$mine]/" >"$work/ref.txt"
for target in "${absent[@]}"; do
  name=${target//./_}
  case $view in
    code) line=$(grep -E "^    $name = " "$work/ref.txt")
          input=$(echo "$line" | sed -E 's/.*\(([A-Za-z_0-9]+)\)(;.*)?$/\1/')
          pattern="^    $name = " ;;
    graph) line=$(grep -E "^    %$name : " "$work/ref.txt")
           input=$(echo "$line" | sed -E 's/.*args = \(%([A-Za-z_0-9]+),\).*/\1/')
           pattern="^    %$name : " ;;
    tabular) line=$(grep -E "^call_module +$name +" "$work/ref.txt")
             input=$(echo "$line" | sed -E 's/.*\(([A-Za-z_0-9]+),\).*/\1/')
             pattern="^call_module +$name +" ;;
  esac
  if [ -z "$line" ] || [ -z "$input" ] || [ "$input" = "$line" ]; then
    echo "FAIL: no call of $target with one input in $reference"
    exit 1
  fi
  sed -i -E "/$pattern/d; s/(^|[^A-Za-z0-9_])$name([^A-Za-z0-9_]|\$)/\1$input\2/g" "$work/ref.txt"
done
if [ "$view" = tabular ]; then
  cells() {  # one tab-separated row per line, call_function targets as qualified names
    awk -F '  +' 'NR > 2 {
      if ($1 == "call_function") {
        t = $3
        if (t ~ /^<built-in function /) { sub(/^<built-in function /, "operator.", t); sub(/>$/, "", t) }
        else if (t ~ /^<built-in method /) { sub(/^<built-in method /, "torch.", t); sub(/ of .*/, "", t) }
        else if (t ~ /^<function /) { sub(/^<function /, "torch.nn.functional.", t); sub(/ at .*/, "", t) }
        $3 = t
      }
      out = $1; for (i = 2; i <= 5; ++i) out = out "\t" $i; print out
    }' "$1"
  }
  cells "$work/ref.txt" >"$work/ref.cells"
  cells "$work/fxc.txt" >"$work/fxc.cells"
  mv "$work/ref.cells" "$work/ref.txt"
  mv "$work/fxc.cells" "$work/fxc.txt"
fi
diff -u "$work/ref.txt" "$work/fxc.txt" && echo "$(wc -l <"$work/ref.txt") lines equal torch.fx's $view"
