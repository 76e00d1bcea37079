def forward(self, x, y):
    add = x + y
    add_1 = x + y
    add_2 = x + y;  x = y = None
    return (add, add_1, add_2)
