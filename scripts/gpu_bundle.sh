#!/usr/bin/env bash
# Packs what scripts/bench_gpu.sh needs on a CUDA machine that cannot build fxc (the device tool's
# H200: a CUDA image without Debian's packages, and no network) into .gpu/ (ignored by git):
#   .gpu/bundle.tar.gz   the Release build with the cuDNN backend (fxc, libfxc_cudnn.so, the unit
#                        tests, fxc-npy-compare, fxc-cudnn-int8-probe) and the Debian libraries
#                        they link that such an image lacks (oneDNN, ONNX, protobuf, spdlog,
#                        fmt); the CUDA libraries are the machine's own
#   .gpu/models/         resnet18, resnet50 and vit_b_16, and three detection and segmentation
#                        models of the zoo, without their weights (scripts/onnx_weights.py;
#                        bench_gpu.sh fills them with seeded random ones)
# Then, there:  tar xzf .gpu/bundle.tar.gz -C .gpu && scripts/bench_gpu.sh --build .gpu/build
#                 --models .gpu/models
#   scripts/gpu_bundle.sh
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh torch
./scripts/build.sh build -DFXC_CUDNN=ON
out=.gpu
rm -rf "$out/build" "$out/bundle.tar.gz"
mkdir -p "$out/build/test" "$out/build/lib" "$out/models"
cp build/fxc build/libfxc_cudnn.so build/fxc-npy-compare build/fxc-cudnn-int8-probe "$out/build/"
cp build/test/fxc_unit_tests "$out/build/test/"
# The libraries a CUDA image has anyway (glibc, the C++ runtime, zlib) stay behind: newer
# ones there serve these binaries (built against glibc 2.34 and GLIBCXX 3.4.30 at most).
ldd build/fxc build/test/fxc_unit_tests | awk '/=> \// { print $3 }' | sort -u | while read -r lib; do
  case $(basename "$lib") in
    libc.so* | libm.so* | libstdc++* | libgcc_s* | libpthread* | libdl* | librt* | ld-linux* | libz.so*) ;;
    *) cp -L "$lib" "$out/build/lib/" ;;
  esac
done
tar czf "$out/bundle.tar.gz" -C "$out" build
rm -rf "$out/build"
big=build/big
for name in resnet18 resnet50 vit_b_16; do
  [ -f "$big/$name.onnx" ] || /usr/bin/python3 scripts/export_testdata.py --big "$big" --names "$name" >/dev/null
  [ -f "$out/models/$name.skeleton.onnx" ] ||
    /usr/bin/python3 scripts/onnx_weights.py strip "$big/$name.onnx" "$out/models/$name.skeleton.onnx"
done
# Detection and segmentation (bench_gpu.sh's models step runs them on cuDNN against the CPU).
for name in yolov8n_like lraspp_mobilenet_v3_large deeplabv3_mobilenet_v3_large; do
  [ -f "build/zoo/$name.fold.onnx" ] || /usr/bin/python3 scripts/zoo.py --only "$name" --modes fold >/dev/null
  [ -f "$out/models/$name.zoo.skeleton.onnx" ] ||
    /usr/bin/python3 scripts/onnx_weights.py strip "build/zoo/$name.fold.onnx" "$out/models/$name.zoo.skeleton.onnx"
done
du -sh "$out"/*
