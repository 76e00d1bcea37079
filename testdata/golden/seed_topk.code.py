


def forward(self, x : torch.Tensor) -> torch.Tensor:
    linear = self.linear(x);  x = None
    _tensor_constant0 = self._tensor_constant0
    _tensor_constant1 = self._tensor_constant1
    reshape = torch.reshape(_tensor_constant0, _tensor_constant1);  _tensor_constant0 = _tensor_constant1 = None
    topk = torch.topk(linear, reshape, axis = -1, largest = 1, sorted = 1);  linear = reshape = None
    getitem = topk[0];  topk = None
    relu = torch.relu(getitem);  getitem = None
    _tensor_constant2 = self._tensor_constant2
    add = relu + _tensor_constant2;  relu = _tensor_constant2 = None
    return add
    
