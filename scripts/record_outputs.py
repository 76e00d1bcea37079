#!/usr/bin/python3
"""Small copies of the zoo's families that CI guards without torch: a transformer encoder layer,
a decoder layer, an LSTM and a GRU model (bidirectional, two layers), each exported by torch.onnx
in both modes (defaults, which fold constants; and training=PRESERVE, do_constant_folding=False:
the unfolded Linear through a Transpose of its weight). Writes testdata/models/<name>.onnx and,
in testdata/recorded/, the seeded input and PyTorch's own output as .npy, which the ctest
`recorded.<name>` compares with `fxc run` element by element. Also the committed narrow CNNs
(scripts/export_testdata.py): rebuilt in PyTorch with the weights read back from their ONNX files,
PyTorch's output for exactly the weights fxc runs.

  scripts/record_outputs.py          all of them
  scripts/record_outputs.py --cnns   only the CNNs' outputs (their models stay as committed)

Needs `scripts/setup.sh torch`. Weights are random (seeded); outputs are recorded, not computed
by fxc.
"""
import os
import sys

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = os.path.join(ROOT, "testdata", "models")
RECORDED = os.path.join(ROOT, "testdata", "recorded")


class Recurrent(torch.nn.Module):
    def __init__(self, cell):
        super().__init__()
        self.rnn = getattr(torch.nn, cell)(8, 12, 2, batch_first=True, bidirectional=True)
        self.head = torch.nn.Linear(24, 5)

    def forward(self, x):
        y, _ = self.rnn(x)
        return self.head(y)


class Decoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = torch.nn.TransformerDecoderLayer(16, 2, 32, dropout=0.0, norm_first=True)
        self.memory = torch.nn.Parameter(torch.randn(5, 1, 16))

    def forward(self, x):
        return self.layer(x, self.memory.expand(-1, x.shape[1], -1))


def models():
    # Sequence first: torch 1.13's batch-first fast path has no ONNX export.
    yield "transformer_encoder_layer", torch.nn.TransformerEncoderLayer(
        16, 2, 32, dropout=0.0), torch.randn(6, 2, 16), "fold"
    yield "transformer_encoder_layer_unfolded", torch.nn.TransformerEncoderLayer(
        16, 2, 32, dropout=0.0), torch.randn(6, 2, 16), "preserve"
    yield "transformer_decoder_layer", Decoder(), torch.randn(4, 2, 16), "fold"
    yield "lstm_bidirectional", Recurrent("LSTM"), torch.randn(2, 5, 8), "fold"
    yield "gru_bidirectional", Recurrent("GRU"), torch.randn(2, 5, 8), "fold"


def randomized(model):
    """Every parameter random: torch initializes some biases to zeros, and torch.onnx then
    shares one initializer between them."""
    gen = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.randn(p.shape, generator=gen) * 0.3)
    return model


def record_cnns():
    """The four CNNs on one input (testdata/ stays small): narrow_cnns.x.npy."""
    import onnx
    import torchvision
    from onnx import numpy_helper
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from export_testdata import narrow

    x = torch.randn(1, 3, 64, 64, generator=torch.Generator().manual_seed(5))
    np.save(os.path.join(RECORDED, "narrow_cnns.x.npy"), x.numpy())
    for stem, base, factor in (("resnet18_narrow", "resnet18", 16), ("mobilenet_v2_narrow", "mobilenet_v2", 8),
                               ("mobilenet_v3_small_narrow", "mobilenet_v3_small", 8),
                               ("squeezenet1_1_narrow", "squeezenet1_1", 8)):
        model = narrow(getattr(torchvision.models, base)(), torch, factor).eval()
        weights = {t.name: numpy_helper.to_array(t) for t in onnx.load(os.path.join(MODELS, stem + ".onnx")).graph.initializer}
        state = model.state_dict()
        for key in state:
            if key.endswith("num_batches_tracked"):
                continue
            if key not in weights or weights[key].shape != tuple(state[key].shape):
                raise SystemExit(f"{stem}: {key} {tuple(state[key].shape)} is not in the ONNX file as such")
            state[key] = torch.from_numpy(weights[key].copy())
        model.load_state_dict(state)
        with torch.no_grad():
            y = model(x)
        np.save(os.path.join(RECORDED, stem + ".y.npy"), y.numpy())
        print(stem, tuple(y.shape))


def main():
    os.makedirs(RECORDED, exist_ok=True)
    if sys.argv[1:] == ["--cnns"]:
        record_cnns()
        return
    for name, model, x, mode in models():
        torch.manual_seed(0)
        randomized(model).eval()
        with torch.no_grad():
            y = model(x)
        kwargs = dict(opset_version=13, input_names=["x"], output_names=["y"])
        if mode == "preserve":
            kwargs.update(training=torch.onnx.TrainingMode.PRESERVE, do_constant_folding=False)
        torch.onnx.export(model, (x,), os.path.join(MODELS, name + ".onnx"), **kwargs)
        np.save(os.path.join(RECORDED, name + ".x.npy"), x.numpy())
        np.save(os.path.join(RECORDED, name + ".y.npy"), y.numpy())
        print(name, tuple(y.shape))
    record_cnns()


if __name__ == "__main__":
    torch.manual_seed(0)
    main()
