


def forward(self, x : torch.Tensor, y : torch.Tensor):
    add = x + y
    add_1 = x + y
    add_2 = x + y;  x = y = None
    return (add, add_1, add_2)
    
