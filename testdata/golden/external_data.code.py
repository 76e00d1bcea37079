


def forward(self, x : torch.Tensor) -> torch.Tensor:
    proj = self.proj(x);  x = None
    return proj
    
