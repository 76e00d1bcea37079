def forward(self, x):
    proj = self.proj(x);  x = None
    return proj
