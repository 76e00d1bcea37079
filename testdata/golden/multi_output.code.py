


def forward(self, x : torch.Tensor):
    split = torch.split(x, axis = 1, num_outputs = 3);  x = None
    getitem = split[0]
    getitem_1 = split[1]
    getitem_2 = split[2];  split = None
    add = getitem + getitem_2;  getitem = getitem_2 = None
    k = self.k
    topk = torch.topk(add, k);  add = k = None
    getitem_3 = topk[0]
    getitem_4 = topk[1];  topk = None
    cast = onnx.Cast(getitem_4, to = 1);  getitem_4 = None
    mul = getitem_3 * cast;  getitem_3 = cast = None
    return (mul, getitem_1)
    
