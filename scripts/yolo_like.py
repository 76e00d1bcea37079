"""A YOLOv8n-style detector in plain PyTorch for the model zoo (scripts/zoo.py): the Ultralytics
architecture rewritten from its published structure, not its code — Conv-BN-SiLU blocks, C2f
(split, bottlenecks, concatenation), SPPF (three chained 5 x 5 max pools), a PAN neck with
nn.Upsample and concatenations, and the decoupled head with its DFL (a softmax over 16 bins
along a transposed axis, then a fixed 1 x 1 convolution) and class sigmoids: [N, 84, anchors]
at 320 x 320 (2,100 anchors). Random weights; no checkpoint is read."""
import torch
from torch import nn


def conv(c1, c2, k=1, s=1):
    return nn.Sequential(nn.Conv2d(c1, c2, k, s, k // 2, bias=False), nn.BatchNorm2d(c2), nn.SiLU())


class Bottleneck(nn.Module):
    def __init__(self, c, shortcut=True):
        super().__init__()
        self.cv1, self.cv2, self.add = conv(c, c, 3), conv(c, c, 3), shortcut

    def forward(self, x):
        y = self.cv2(self.cv1(x))
        return x + y if self.add else y


class C2f(nn.Module):
    def __init__(self, c1, c2, n=1, shortcut=True):
        super().__init__()
        self.c = c2 // 2
        self.cv1 = conv(c1, 2 * self.c)
        self.cv2 = conv((2 + n) * self.c, c2)
        self.m = nn.ModuleList(Bottleneck(self.c, shortcut) for _ in range(n))

    def forward(self, x):
        y = list(self.cv1(x).chunk(2, 1))
        y.extend(m(y[-1]) for m in self.m)
        return self.cv2(torch.cat(y, 1))


class SPPF(nn.Module):
    def __init__(self, c1, c2):
        super().__init__()
        c = c1 // 2
        self.cv1, self.cv2, self.m = conv(c1, c), conv(c * 4, c2), nn.MaxPool2d(5, 1, 2)

    def forward(self, x):
        x = self.cv1(x)
        y1 = self.m(x)
        y2 = self.m(y1)
        return self.cv2(torch.cat((x, y1, y2, self.m(y2)), 1))


class DFL(nn.Module):
    def __init__(self, bins=16):
        super().__init__()
        self.conv = nn.Conv2d(bins, 1, 1, bias=False).requires_grad_(False)
        self.conv.weight.data[:] = torch.arange(bins, dtype=torch.float).view(1, bins, 1, 1)
        self.bins = bins

    def forward(self, x):
        b, _, a = x.shape
        return self.conv(x.view(b, 4, self.bins, a).transpose(2, 1).softmax(1)).view(b, 4, a)


class YoloLike(nn.Module):
    def __init__(self, classes=80, bins=16):
        super().__init__()
        self.b0, self.b1, self.b2 = conv(3, 16, 3, 2), conv(16, 32, 3, 2), C2f(32, 32, 1)
        self.b3, self.b4 = conv(32, 64, 3, 2), C2f(64, 64, 2)
        self.b5, self.b6 = conv(64, 128, 3, 2), C2f(128, 128, 2)
        self.b7, self.b8, self.b9 = conv(128, 256, 3, 2), C2f(256, 256, 1), SPPF(256, 256)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.n1, self.n2 = C2f(384, 128, 1, False), C2f(192, 64, 1, False)
        self.d1, self.n3 = conv(64, 64, 3, 2), C2f(192, 128, 1, False)
        self.d2, self.n4 = conv(128, 128, 3, 2), C2f(384, 256, 1, False)
        self.classes, self.bins = classes, bins
        self.box = nn.ModuleList(nn.Sequential(conv(c, 64, 3), conv(64, 64, 3), nn.Conv2d(64, 4 * bins, 1))
                                 for c in (64, 128, 256))
        self.cls = nn.ModuleList(nn.Sequential(conv(c, 80, 3), conv(80, 80, 3), nn.Conv2d(80, classes, 1))
                                 for c in (64, 128, 256))
        self.dfl = DFL(bins)

    def forward(self, x):
        x = self.b2(self.b1(self.b0(x)))
        p3 = self.b4(self.b3(x))
        p4 = self.b6(self.b5(p3))
        p5 = self.b9(self.b8(self.b7(p4)))
        t = self.n1(torch.cat([self.up(p5), p4], 1))
        n3 = self.n2(torch.cat([self.up(t), p3], 1))
        n4 = self.n3(torch.cat([self.d1(n3), t], 1))
        n5 = self.n4(torch.cat([self.d2(n4), p5], 1))
        b = x.shape[0]
        levels = [torch.cat((self.box[i](f), self.cls[i](f)), 1) for i, f in enumerate((n3, n4, n5))]
        flat = torch.cat([o.view(b, 4 * self.bins + self.classes, -1) for o in levels], 2)
        box, cls = flat.split((4 * self.bins, self.classes), 1)
        return torch.cat((self.dfl(box), cls.sigmoid()), 1)
