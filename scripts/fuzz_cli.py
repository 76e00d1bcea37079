#!/usr/bin/python3
"""Mutation fuzzing of the fxc binary: never a crash, a hang or a stack trace.

Takes the repository's models and ONNX's node test models, flips, deletes and inserts random
bytes, and runs `fxc trace --code`, `fxc run` and `fxc fuse ... -o` on each. Every run must end
with exit 0, or exit 1/2 with a last stderr line `fxc: error: ...`, within 20 s. Failing inputs
are kept in the work directory. Point --fxc at build-asan/fxc to catch memory errors too.

  scripts/fuzz_cli.py [--fxc build/fxc] [--runs 400] [--seed 0]
Needs only Python 3 (`scripts/setup.sh python`) and a built fxc.
"""
import argparse
import glob
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def mutate(data, rng):
    data = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        if not data:
            break
        i = rng.randrange(len(data))
        choice = rng.random()
        if choice < 0.6:
            data[i] = rng.randrange(256)
        elif choice < 0.8:
            del data[i:i + rng.randint(1, 16)]
        else:
            data[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
    return bytes(data)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fxc", default=os.path.join(ROOT, "build", "fxc"))
    parser.add_argument("--runs", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    models = sorted(glob.glob(os.path.join(ROOT, "testdata", "models", "*.onnx")))
    models += sorted(glob.glob("/usr/share/libonnx-testdata/data/node/*/model.onnx"))[:200]
    work = tempfile.mkdtemp(prefix="fxc-fuzz-")
    model_path, out_path = os.path.join(work, "model.onnx"), os.path.join(work, "out.onnx")
    commands = (["trace", "--code"], ["run", "--seed", "1"],
                ["fuse", "--pass", "conv-bn", "--pass", "dce", "--pass", "identity", "-o", out_path])
    problems = 0
    for run in range(args.runs):
        source = rng.choice(models)
        data = mutate(open(source, "rb").read(), rng)
        with open(model_path, "wb") as f:
            f.write(data)
        for command in commands:
            try:
                result = subprocess.run([args.fxc] + command + [model_path], capture_output=True, timeout=20)
            except subprocess.TimeoutExpired:
                verdict = "hang"
            else:
                last = result.stderr.decode(errors="replace").strip().split("\n")[-1]
                ok = result.returncode == 0 or (result.returncode in (1, 2) and last.startswith("fxc: error:"))
                verdict = None if ok else f"exit {result.returncode}: {last[:200]}"
            if verdict:
                kept = os.path.join(work, f"problem_{problems}.onnx")
                with open(kept, "wb") as f:
                    f.write(data)
                print(f"{verdict}  fxc {' '.join(command)}  (from {source}; kept as {kept})")
                problems += 1
    print(f"{args.runs} mutated models x {len(commands)} commands: {problems} problems (work dir {work})")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
