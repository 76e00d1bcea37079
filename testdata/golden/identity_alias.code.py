def forward(self, x):
    a = self.a(x);  x = None
    b = self.b(a);  a = None
    return b
