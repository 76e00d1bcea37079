


def forward(self, input_1 : torch.Tensor) -> torch.Tensor:
    conv = self.conv(input_1);  input_1 = None
    batch_normalization = self.batch_normalization(conv);  conv = None
    relu = torch.relu(batch_normalization);  batch_normalization = None
    conv_1 = self.conv_1(relu);  relu = None
    adaptive_avg_pool2d = torch.nn.functional.adaptive_avg_pool2d(conv_1, (1, 1));  conv_1 = None
    flatten = torch.flatten(adaptive_avg_pool2d, 1);  adaptive_avg_pool2d = None
    gemm = self.gemm(flatten);  flatten = None
    return gemm
    
