#!/usr/bin/env bash
# fxc codegen as a user runs it, without PyTorch: the four files, byte-for-byte reproducible;
# existing files kept without --force and replaced with it; -o on a file refused; nothing left
# half-written.
#   codegen_cli.sh FXC
set -u
fxc=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() {
  echo "FAIL: $1"
  [ -f "$work/err" ] && cat "$work/err"
  exit 1
}
model=testdata/models/resnet18_narrow.onnx
"$fxc" codegen -q "$model" -o "$work/pkg" 2>"$work/err" || fail "codegen failed"
[ "$(ls "$work/pkg" | tr '\n' ' ')" = "__init__.py module.py onnx_ops.py weights.npz " ] ||
  fail "the package holds $(ls -A "$work/pkg" | tr '\n' ' ')"
[ "$(head -c 4 "$work/pkg/weights.npz" | od -An -c | tr -d ' ')" = "PK003004" ] ||
  fail "weights.npz is not a ZIP file"
grep -q '^class FxModule(torch.nn.Module):$' "$work/pkg/module.py" || fail "no FxModule"
grep -qF '        self.add_module("conv1", torch.nn.Conv2d(3, 4, kernel_size=(7, 7), stride=(2, 2), padding=(3, 3), dilation=(1, 1), groups=1, bias=False))' \
  "$work/pkg/module.py" || fail "conv1 is not a torch.nn.Conv2d of the model's attributes"
grep -qF '        flatten = torch.flatten(avgpool, 1);  avgpool = None' "$work/pkg/module.py" ||
  fail "forward is not the --code view"
"$fxc" codegen -q "$model" -o "$work/again" || fail "the second run failed"
for file in __init__.py module.py onnx_ops.py weights.npz; do
  cmp -s "$work/pkg/$file" "$work/again/$file" || fail "$file differs between two runs"
done
echo "# user's edit" >>"$work/pkg/module.py"
cp "$work/pkg/module.py" "$work/edited.py"
"$fxc" codegen "$model" -o "$work/pkg" 2>"$work/err"
[ $? = 1 ] || fail "an existing package was not refused without --force"
[ "$(wc -l <"$work/err")" = 1 ] && grep -q "^fxc: error: .*/pkg/[a-z_]*\.[a-z]*: exists (--force replaces it)" "$work/err" ||
  fail "the refusal is not one line naming the file"
cmp -s "$work/pkg/module.py" "$work/edited.py" || fail "module.py was clobbered without --force"
"$fxc" codegen -q "$model" -o "$work/pkg" --force 2>"$work/err" || fail "--force failed"
cmp -s "$work/pkg/module.py" "$work/again/module.py" || fail "--force did not replace module.py"
# --force onto a package whose last file cannot be written: no file of it is replaced.
cp "$work/edited.py" "$work/pkg/module.py" && rm "$work/pkg/__init__.py" && mkdir "$work/pkg/__init__.py"
"$fxc" codegen "$model" -o "$work/pkg" --force 2>"$work/err"
[ $? = 1 ] && [ "$(wc -l <"$work/err")" = 1 ] && grep -q "__init__.py: is a directory" "$work/err" ||
  fail "--force onto a directory __init__.py: $(cat "$work/err")"
cmp -s "$work/pkg/module.py" "$work/edited.py" || fail "a failed --force replaced module.py"
rmdir "$work/pkg/__init__.py"
[ -z "$(find "$work" -name '*.tmp*' -o -name '.*fxc*')" ] || fail "temporary files left behind"
touch "$work/file"
"$fxc" codegen "$model" -o "$work/file" 2>"$work/err"
[ $? = 1 ] && grep -q "^fxc: error: .*file: not a directory" "$work/err" || fail "-o FILE was not refused"
"$fxc" codegen "$model" 2>"$work/err"
[ $? = 2 ] || fail "codegen without -o is not a usage error"
echo "codegen writes its package safely"
