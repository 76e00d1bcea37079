


def forward(self, x : torch.Tensor) -> torch.Tensor:
    a = self.a(x);  x = None
    b = self.b(a);  a = None
    return b
    
