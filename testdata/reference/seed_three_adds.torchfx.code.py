


def forward(self, x, y):
    add = x + y
    add_1 = torch.add(x, y)
    add_2 = x.add(y);  x = y = None
    return (add, add_1, add_2)
    