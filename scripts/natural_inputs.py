#!/usr/bin/env python3
"""Natural-image inputs for a trained RGB network: seeded random square crops (half to all of
the shorter side, mirrored at random) of the photographs Debian's python3-skimage ships, scaled
to SIZE x SIZE and to [0, 1]. Calibration crops and held-out crops come from different
photographs, so the held-out samples measure images the calibration never saw.

  natural_inputs.py OUT_DIR SIZE
writes OUT_DIR/images/cal_NNN.npy (64) then OUT_DIR/images/test_NNN.npy (16), each NCHW float32
[1, 3, SIZE, SIZE] (fxc quantize --calibration OUT_DIR/images --holdout 16 holds the test_ files
out: they sort last), and OUT_DIR/test_nhwc.f32, the held-out samples in NHWC for TensorFlow.js.
"""
import os
import sys

import numpy as np
from PIL import Image
import skimage.data

CALIBRATION = ["astronaut.png", "coffee.png", "hubble_deep_field.jpg", "ihc.png",
               "motorcycle_left.png", "retina.jpg", "camera.png", "moon.png"]
HELD_OUT = ["chelsea.png", "rocket.jpg", "coins.png", "gravel.png"]


def crops(path, count, size, rng):
    image = Image.open(path).convert("RGB")
    w, h = image.size
    out = []
    for _ in range(count):
        side = int(min(w, h) * rng.uniform(0.5, 1.0))
        x, y = rng.integers(0, w - side + 1), rng.integers(0, h - side + 1)
        crop = image.crop((x, y, x + side, y + side)).resize((size, size), Image.BILINEAR)
        if rng.random() < 0.5:
            crop = crop.transpose(Image.FLIP_LEFT_RIGHT)
        out.append(np.asarray(crop, dtype=np.float32) / 255.0)  # HWC
    return out


def main(out_dir, size):
    data = os.path.dirname(skimage.data.__file__)
    rng = np.random.default_rng(2026)
    images = os.path.join(out_dir, "images")
    os.makedirs(images, exist_ok=True)
    cal = [c for name in CALIBRATION for c in crops(os.path.join(data, name), 8, size, rng)]
    test = [c for name in HELD_OUT for c in crops(os.path.join(data, name), 4, size, rng)]
    for prefix, samples in (("cal", cal), ("test", test)):
        for k, hwc in enumerate(samples):
            np.save(os.path.join(images, f"{prefix}_{k:03d}.npy"),
                    np.ascontiguousarray(hwc.transpose(2, 0, 1)[None]))
    np.stack(test).astype(np.float32).tofile(os.path.join(out_dir, "test_nhwc.f32"))
    print(f"{images}: {len(cal)} calibration and {len(test)} held-out crops, {size} x {size}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], int(sys.argv[2]))
