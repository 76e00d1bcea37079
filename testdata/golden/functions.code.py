


def forward(self, x : torch.Tensor) -> torch.Tensor:
    conv = self.conv(x);  x = None
    swish = custom.Swish(conv)
    swish_1 = custom.Swish(swish);  swish = None
    add = swish_1 + conv;  swish_1 = conv = None
    return add
    
