


def forward(self, x : torch.Tensor) -> torch.Tensor:
    conv = self.conv(x);  x = None
    sigmoid = torch.sigmoid(conv)
    mul = conv * sigmoid;  sigmoid = None
    sigmoid_1 = torch.sigmoid(mul)
    mul_1 = mul * sigmoid_1;  mul = sigmoid_1 = None
    add = mul_1 + conv;  mul_1 = conv = None
    return add
    
