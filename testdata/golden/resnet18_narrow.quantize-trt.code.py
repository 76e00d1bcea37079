


def forward(self, input_1 : torch.Tensor) -> torch.Tensor:
    input_1_scale = self.input_1_scale
    input_1_zero_point = self.input_1_zero_point
    fake_quantize_per_tensor_affine = torch.fake_quantize_per_tensor_affine(input_1, input_1_scale, input_1_zero_point, quant_min = -128, quant_max = 127);  input_1 = input_1_scale = input_1_zero_point = None
    conv1_weight_quantized = self.conv1.weight_quantized
    conv1_weight_scale = self.conv1.weight_scale
    conv1_weight_zero_point = self.conv1.weight_zero_point
    dequantize_linear = onnx.DequantizeLinear(conv1_weight_quantized, conv1_weight_scale, conv1_weight_zero_point, axis = 0);  conv1_weight_quantized = conv1_weight_scale = conv1_weight_zero_point = None
    conv1_bias = self.conv1.bias
    conv1 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine, dequantize_linear, conv1_bias, (2, 2), (3, 3), (1, 1), 1);  fake_quantize_per_tensor_affine = dequantize_linear = conv1_bias = None
    relu = self.relu(conv1);  conv1 = None
    maxpool = self.maxpool(relu);  relu = None
    maxpool_scale = self.maxpool_scale
    maxpool_zero_point = self.maxpool_zero_point
    fake_quantize_per_tensor_affine_1 = torch.fake_quantize_per_tensor_affine(maxpool, maxpool_scale, maxpool_zero_point, quant_min = -128, quant_max = 127);  maxpool = maxpool_scale = maxpool_zero_point = None
    layer1_0_conv1_weight_quantized = getattr(self.layer1, "0").conv1.weight_quantized
    layer1_0_conv1_weight_scale = getattr(self.layer1, "0").conv1.weight_scale
    layer1_0_conv1_weight_zero_point = getattr(self.layer1, "0").conv1.weight_zero_point
    dequantize_linear_1 = onnx.DequantizeLinear(layer1_0_conv1_weight_quantized, layer1_0_conv1_weight_scale, layer1_0_conv1_weight_zero_point, axis = 0);  layer1_0_conv1_weight_quantized = layer1_0_conv1_weight_scale = layer1_0_conv1_weight_zero_point = None
    layer1_0_conv1_bias = getattr(self.layer1, "0").conv1.bias
    layer1_0_conv1 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_1, dequantize_linear_1, layer1_0_conv1_bias, (1, 1), (1, 1), (1, 1), 1);  dequantize_linear_1 = layer1_0_conv1_bias = None
    layer1_0_relu = getattr(self.layer1, "0").relu(layer1_0_conv1);  layer1_0_conv1 = None
    layer1_0_relu_scale = self.layer1_0_relu_scale
    layer1_0_relu_zero_point = self.layer1_0_relu_zero_point
    fake_quantize_per_tensor_affine_2 = torch.fake_quantize_per_tensor_affine(layer1_0_relu, layer1_0_relu_scale, layer1_0_relu_zero_point, quant_min = -128, quant_max = 127);  layer1_0_relu = layer1_0_relu_scale = layer1_0_relu_zero_point = None
    layer1_0_conv2_weight_quantized = getattr(self.layer1, "0").conv2.weight_quantized
    layer1_0_conv2_weight_scale = getattr(self.layer1, "0").conv2.weight_scale
    layer1_0_conv2_weight_zero_point = getattr(self.layer1, "0").conv2.weight_zero_point
    dequantize_linear_2 = onnx.DequantizeLinear(layer1_0_conv2_weight_quantized, layer1_0_conv2_weight_scale, layer1_0_conv2_weight_zero_point, axis = 0);  layer1_0_conv2_weight_quantized = layer1_0_conv2_weight_scale = layer1_0_conv2_weight_zero_point = None
    layer1_0_conv2_bias = getattr(self.layer1, "0").conv2.bias
    layer1_0_conv2 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_2, dequantize_linear_2, layer1_0_conv2_bias, (1, 1), (1, 1), (1, 1), 1);  fake_quantize_per_tensor_affine_2 = dequantize_linear_2 = layer1_0_conv2_bias = None
    add = layer1_0_conv2 + fake_quantize_per_tensor_affine_1;  layer1_0_conv2 = fake_quantize_per_tensor_affine_1 = None
    layer1_0_relu_1 = getattr(self.layer1, "0").relu(add);  add = None
    layer1_0_relu_1_scale = self.layer1_0_relu_1_scale
    layer1_0_relu_1_zero_point = self.layer1_0_relu_1_zero_point
    fake_quantize_per_tensor_affine_3 = torch.fake_quantize_per_tensor_affine(layer1_0_relu_1, layer1_0_relu_1_scale, layer1_0_relu_1_zero_point, quant_min = -128, quant_max = 127);  layer1_0_relu_1 = layer1_0_relu_1_scale = layer1_0_relu_1_zero_point = None
    layer1_1_conv1_weight_quantized = getattr(self.layer1, "1").conv1.weight_quantized
    layer1_1_conv1_weight_scale = getattr(self.layer1, "1").conv1.weight_scale
    layer1_1_conv1_weight_zero_point = getattr(self.layer1, "1").conv1.weight_zero_point
    dequantize_linear_3 = onnx.DequantizeLinear(layer1_1_conv1_weight_quantized, layer1_1_conv1_weight_scale, layer1_1_conv1_weight_zero_point, axis = 0);  layer1_1_conv1_weight_quantized = layer1_1_conv1_weight_scale = layer1_1_conv1_weight_zero_point = None
    layer1_1_conv1_bias = getattr(self.layer1, "1").conv1.bias
    layer1_1_conv1 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_3, dequantize_linear_3, layer1_1_conv1_bias, (1, 1), (1, 1), (1, 1), 1);  dequantize_linear_3 = layer1_1_conv1_bias = None
    layer1_1_relu = getattr(self.layer1, "1").relu(layer1_1_conv1);  layer1_1_conv1 = None
    layer1_1_relu_scale = self.layer1_1_relu_scale
    layer1_1_relu_zero_point = self.layer1_1_relu_zero_point
    fake_quantize_per_tensor_affine_4 = torch.fake_quantize_per_tensor_affine(layer1_1_relu, layer1_1_relu_scale, layer1_1_relu_zero_point, quant_min = -128, quant_max = 127);  layer1_1_relu = layer1_1_relu_scale = layer1_1_relu_zero_point = None
    layer1_1_conv2_weight_quantized = getattr(self.layer1, "1").conv2.weight_quantized
    layer1_1_conv2_weight_scale = getattr(self.layer1, "1").conv2.weight_scale
    layer1_1_conv2_weight_zero_point = getattr(self.layer1, "1").conv2.weight_zero_point
    dequantize_linear_4 = onnx.DequantizeLinear(layer1_1_conv2_weight_quantized, layer1_1_conv2_weight_scale, layer1_1_conv2_weight_zero_point, axis = 0);  layer1_1_conv2_weight_quantized = layer1_1_conv2_weight_scale = layer1_1_conv2_weight_zero_point = None
    layer1_1_conv2_bias = getattr(self.layer1, "1").conv2.bias
    layer1_1_conv2 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_4, dequantize_linear_4, layer1_1_conv2_bias, (1, 1), (1, 1), (1, 1), 1);  fake_quantize_per_tensor_affine_4 = dequantize_linear_4 = layer1_1_conv2_bias = None
    add_1 = layer1_1_conv2 + fake_quantize_per_tensor_affine_3;  layer1_1_conv2 = fake_quantize_per_tensor_affine_3 = None
    layer1_1_relu_1 = getattr(self.layer1, "1").relu(add_1);  add_1 = None
    layer1_1_relu_1_scale = self.layer1_1_relu_1_scale
    layer1_1_relu_1_zero_point = self.layer1_1_relu_1_zero_point
    fake_quantize_per_tensor_affine_5 = torch.fake_quantize_per_tensor_affine(layer1_1_relu_1, layer1_1_relu_1_scale, layer1_1_relu_1_zero_point, quant_min = -128, quant_max = 127);  layer1_1_relu_1 = layer1_1_relu_1_scale = layer1_1_relu_1_zero_point = None
    layer2_0_conv1_weight_quantized = getattr(self.layer2, "0").conv1.weight_quantized
    layer2_0_conv1_weight_scale = getattr(self.layer2, "0").conv1.weight_scale
    layer2_0_conv1_weight_zero_point = getattr(self.layer2, "0").conv1.weight_zero_point
    dequantize_linear_5 = onnx.DequantizeLinear(layer2_0_conv1_weight_quantized, layer2_0_conv1_weight_scale, layer2_0_conv1_weight_zero_point, axis = 0);  layer2_0_conv1_weight_quantized = layer2_0_conv1_weight_scale = layer2_0_conv1_weight_zero_point = None
    layer2_0_conv1_bias = getattr(self.layer2, "0").conv1.bias
    layer2_0_conv1 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_5, dequantize_linear_5, layer2_0_conv1_bias, (2, 2), (1, 1), (1, 1), 1);  dequantize_linear_5 = layer2_0_conv1_bias = None
    layer2_0_relu = getattr(self.layer2, "0").relu(layer2_0_conv1);  layer2_0_conv1 = None
    layer2_0_relu_scale = self.layer2_0_relu_scale
    layer2_0_relu_zero_point = self.layer2_0_relu_zero_point
    fake_quantize_per_tensor_affine_6 = torch.fake_quantize_per_tensor_affine(layer2_0_relu, layer2_0_relu_scale, layer2_0_relu_zero_point, quant_min = -128, quant_max = 127);  layer2_0_relu = layer2_0_relu_scale = layer2_0_relu_zero_point = None
    layer2_0_conv2_weight_quantized = getattr(self.layer2, "0").conv2.weight_quantized
    layer2_0_conv2_weight_scale = getattr(self.layer2, "0").conv2.weight_scale
    layer2_0_conv2_weight_zero_point = getattr(self.layer2, "0").conv2.weight_zero_point
    dequantize_linear_6 = onnx.DequantizeLinear(layer2_0_conv2_weight_quantized, layer2_0_conv2_weight_scale, layer2_0_conv2_weight_zero_point, axis = 0);  layer2_0_conv2_weight_quantized = layer2_0_conv2_weight_scale = layer2_0_conv2_weight_zero_point = None
    layer2_0_conv2_bias = getattr(self.layer2, "0").conv2.bias
    layer2_0_conv2 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_6, dequantize_linear_6, layer2_0_conv2_bias, (1, 1), (1, 1), (1, 1), 1);  fake_quantize_per_tensor_affine_6 = dequantize_linear_6 = layer2_0_conv2_bias = None
    layer2_0_downsample_0_weight_quantized = getattr(getattr(self.layer2, "0").downsample, "0").weight_quantized
    layer2_0_downsample_0_weight_scale = getattr(getattr(self.layer2, "0").downsample, "0").weight_scale
    layer2_0_downsample_0_weight_zero_point = getattr(getattr(self.layer2, "0").downsample, "0").weight_zero_point
    dequantize_linear_7 = onnx.DequantizeLinear(layer2_0_downsample_0_weight_quantized, layer2_0_downsample_0_weight_scale, layer2_0_downsample_0_weight_zero_point, axis = 0);  layer2_0_downsample_0_weight_quantized = layer2_0_downsample_0_weight_scale = layer2_0_downsample_0_weight_zero_point = None
    layer2_0_downsample_0_bias = getattr(getattr(self.layer2, "0").downsample, "0").bias
    layer2_0_downsample_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_5, dequantize_linear_7, layer2_0_downsample_0_bias, (2, 2), (0, 0), (1, 1), 1);  fake_quantize_per_tensor_affine_5 = dequantize_linear_7 = layer2_0_downsample_0_bias = None
    layer2_0_downsample_0_scale = self.layer2_0_downsample_0_scale
    layer2_0_downsample_0_zero_point = self.layer2_0_downsample_0_zero_point
    fake_quantize_per_tensor_affine_7 = torch.fake_quantize_per_tensor_affine(layer2_0_downsample_0, layer2_0_downsample_0_scale, layer2_0_downsample_0_zero_point, quant_min = -128, quant_max = 127);  layer2_0_downsample_0 = layer2_0_downsample_0_scale = layer2_0_downsample_0_zero_point = None
    add_2 = layer2_0_conv2 + fake_quantize_per_tensor_affine_7;  layer2_0_conv2 = fake_quantize_per_tensor_affine_7 = None
    layer2_0_relu_1 = getattr(self.layer2, "0").relu(add_2);  add_2 = None
    layer2_0_relu_1_scale = self.layer2_0_relu_1_scale
    layer2_0_relu_1_zero_point = self.layer2_0_relu_1_zero_point
    fake_quantize_per_tensor_affine_8 = torch.fake_quantize_per_tensor_affine(layer2_0_relu_1, layer2_0_relu_1_scale, layer2_0_relu_1_zero_point, quant_min = -128, quant_max = 127);  layer2_0_relu_1 = layer2_0_relu_1_scale = layer2_0_relu_1_zero_point = None
    layer2_1_conv1_weight_quantized = getattr(self.layer2, "1").conv1.weight_quantized
    layer2_1_conv1_weight_scale = getattr(self.layer2, "1").conv1.weight_scale
    layer2_1_conv1_weight_zero_point = getattr(self.layer2, "1").conv1.weight_zero_point
    dequantize_linear_8 = onnx.DequantizeLinear(layer2_1_conv1_weight_quantized, layer2_1_conv1_weight_scale, layer2_1_conv1_weight_zero_point, axis = 0);  layer2_1_conv1_weight_quantized = layer2_1_conv1_weight_scale = layer2_1_conv1_weight_zero_point = None
    layer2_1_conv1_bias = getattr(self.layer2, "1").conv1.bias
    layer2_1_conv1 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_8, dequantize_linear_8, layer2_1_conv1_bias, (1, 1), (1, 1), (1, 1), 1);  dequantize_linear_8 = layer2_1_conv1_bias = None
    layer2_1_relu = getattr(self.layer2, "1").relu(layer2_1_conv1);  layer2_1_conv1 = None
    layer2_1_relu_scale = self.layer2_1_relu_scale
    layer2_1_relu_zero_point = self.layer2_1_relu_zero_point
    fake_quantize_per_tensor_affine_9 = torch.fake_quantize_per_tensor_affine(layer2_1_relu, layer2_1_relu_scale, layer2_1_relu_zero_point, quant_min = -128, quant_max = 127);  layer2_1_relu = layer2_1_relu_scale = layer2_1_relu_zero_point = None
    layer2_1_conv2_weight_quantized = getattr(self.layer2, "1").conv2.weight_quantized
    layer2_1_conv2_weight_scale = getattr(self.layer2, "1").conv2.weight_scale
    layer2_1_conv2_weight_zero_point = getattr(self.layer2, "1").conv2.weight_zero_point
    dequantize_linear_9 = onnx.DequantizeLinear(layer2_1_conv2_weight_quantized, layer2_1_conv2_weight_scale, layer2_1_conv2_weight_zero_point, axis = 0);  layer2_1_conv2_weight_quantized = layer2_1_conv2_weight_scale = layer2_1_conv2_weight_zero_point = None
    layer2_1_conv2_bias = getattr(self.layer2, "1").conv2.bias
    layer2_1_conv2 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_9, dequantize_linear_9, layer2_1_conv2_bias, (1, 1), (1, 1), (1, 1), 1);  fake_quantize_per_tensor_affine_9 = dequantize_linear_9 = layer2_1_conv2_bias = None
    add_3 = layer2_1_conv2 + fake_quantize_per_tensor_affine_8;  layer2_1_conv2 = fake_quantize_per_tensor_affine_8 = None
    layer2_1_relu_1 = getattr(self.layer2, "1").relu(add_3);  add_3 = None
    layer2_1_relu_1_scale = self.layer2_1_relu_1_scale
    layer2_1_relu_1_zero_point = self.layer2_1_relu_1_zero_point
    fake_quantize_per_tensor_affine_10 = torch.fake_quantize_per_tensor_affine(layer2_1_relu_1, layer2_1_relu_1_scale, layer2_1_relu_1_zero_point, quant_min = -128, quant_max = 127);  layer2_1_relu_1 = layer2_1_relu_1_scale = layer2_1_relu_1_zero_point = None
    layer3_0_conv1_weight_quantized = getattr(self.layer3, "0").conv1.weight_quantized
    layer3_0_conv1_weight_scale = getattr(self.layer3, "0").conv1.weight_scale
    layer3_0_conv1_weight_zero_point = getattr(self.layer3, "0").conv1.weight_zero_point
    dequantize_linear_10 = onnx.DequantizeLinear(layer3_0_conv1_weight_quantized, layer3_0_conv1_weight_scale, layer3_0_conv1_weight_zero_point, axis = 0);  layer3_0_conv1_weight_quantized = layer3_0_conv1_weight_scale = layer3_0_conv1_weight_zero_point = None
    layer3_0_conv1_bias = getattr(self.layer3, "0").conv1.bias
    layer3_0_conv1 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_10, dequantize_linear_10, layer3_0_conv1_bias, (2, 2), (1, 1), (1, 1), 1);  dequantize_linear_10 = layer3_0_conv1_bias = None
    layer3_0_relu = getattr(self.layer3, "0").relu(layer3_0_conv1);  layer3_0_conv1 = None
    layer3_0_relu_scale = self.layer3_0_relu_scale
    layer3_0_relu_zero_point = self.layer3_0_relu_zero_point
    fake_quantize_per_tensor_affine_11 = torch.fake_quantize_per_tensor_affine(layer3_0_relu, layer3_0_relu_scale, layer3_0_relu_zero_point, quant_min = -128, quant_max = 127);  layer3_0_relu = layer3_0_relu_scale = layer3_0_relu_zero_point = None
    layer3_0_conv2_weight_quantized = getattr(self.layer3, "0").conv2.weight_quantized
    layer3_0_conv2_weight_scale = getattr(self.layer3, "0").conv2.weight_scale
    layer3_0_conv2_weight_zero_point = getattr(self.layer3, "0").conv2.weight_zero_point
    dequantize_linear_11 = onnx.DequantizeLinear(layer3_0_conv2_weight_quantized, layer3_0_conv2_weight_scale, layer3_0_conv2_weight_zero_point, axis = 0);  layer3_0_conv2_weight_quantized = layer3_0_conv2_weight_scale = layer3_0_conv2_weight_zero_point = None
    layer3_0_conv2_bias = getattr(self.layer3, "0").conv2.bias
    layer3_0_conv2 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_11, dequantize_linear_11, layer3_0_conv2_bias, (1, 1), (1, 1), (1, 1), 1);  fake_quantize_per_tensor_affine_11 = dequantize_linear_11 = layer3_0_conv2_bias = None
    layer3_0_downsample_0_weight_quantized = getattr(getattr(self.layer3, "0").downsample, "0").weight_quantized
    layer3_0_downsample_0_weight_scale = getattr(getattr(self.layer3, "0").downsample, "0").weight_scale
    layer3_0_downsample_0_weight_zero_point = getattr(getattr(self.layer3, "0").downsample, "0").weight_zero_point
    dequantize_linear_12 = onnx.DequantizeLinear(layer3_0_downsample_0_weight_quantized, layer3_0_downsample_0_weight_scale, layer3_0_downsample_0_weight_zero_point, axis = 0);  layer3_0_downsample_0_weight_quantized = layer3_0_downsample_0_weight_scale = layer3_0_downsample_0_weight_zero_point = None
    layer3_0_downsample_0_bias = getattr(getattr(self.layer3, "0").downsample, "0").bias
    layer3_0_downsample_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_10, dequantize_linear_12, layer3_0_downsample_0_bias, (2, 2), (0, 0), (1, 1), 1);  fake_quantize_per_tensor_affine_10 = dequantize_linear_12 = layer3_0_downsample_0_bias = None
    layer3_0_downsample_0_scale = self.layer3_0_downsample_0_scale
    layer3_0_downsample_0_zero_point = self.layer3_0_downsample_0_zero_point
    fake_quantize_per_tensor_affine_12 = torch.fake_quantize_per_tensor_affine(layer3_0_downsample_0, layer3_0_downsample_0_scale, layer3_0_downsample_0_zero_point, quant_min = -128, quant_max = 127);  layer3_0_downsample_0 = layer3_0_downsample_0_scale = layer3_0_downsample_0_zero_point = None
    add_4 = layer3_0_conv2 + fake_quantize_per_tensor_affine_12;  layer3_0_conv2 = fake_quantize_per_tensor_affine_12 = None
    layer3_0_relu_1 = getattr(self.layer3, "0").relu(add_4);  add_4 = None
    layer3_0_relu_1_scale = self.layer3_0_relu_1_scale
    layer3_0_relu_1_zero_point = self.layer3_0_relu_1_zero_point
    fake_quantize_per_tensor_affine_13 = torch.fake_quantize_per_tensor_affine(layer3_0_relu_1, layer3_0_relu_1_scale, layer3_0_relu_1_zero_point, quant_min = -128, quant_max = 127);  layer3_0_relu_1 = layer3_0_relu_1_scale = layer3_0_relu_1_zero_point = None
    layer3_1_conv1_weight_quantized = getattr(self.layer3, "1").conv1.weight_quantized
    layer3_1_conv1_weight_scale = getattr(self.layer3, "1").conv1.weight_scale
    layer3_1_conv1_weight_zero_point = getattr(self.layer3, "1").conv1.weight_zero_point
    dequantize_linear_13 = onnx.DequantizeLinear(layer3_1_conv1_weight_quantized, layer3_1_conv1_weight_scale, layer3_1_conv1_weight_zero_point, axis = 0);  layer3_1_conv1_weight_quantized = layer3_1_conv1_weight_scale = layer3_1_conv1_weight_zero_point = None
    layer3_1_conv1_bias = getattr(self.layer3, "1").conv1.bias
    layer3_1_conv1 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_13, dequantize_linear_13, layer3_1_conv1_bias, (1, 1), (1, 1), (1, 1), 1);  dequantize_linear_13 = layer3_1_conv1_bias = None
    layer3_1_relu = getattr(self.layer3, "1").relu(layer3_1_conv1);  layer3_1_conv1 = None
    layer3_1_relu_scale = self.layer3_1_relu_scale
    layer3_1_relu_zero_point = self.layer3_1_relu_zero_point
    fake_quantize_per_tensor_affine_14 = torch.fake_quantize_per_tensor_affine(layer3_1_relu, layer3_1_relu_scale, layer3_1_relu_zero_point, quant_min = -128, quant_max = 127);  layer3_1_relu = layer3_1_relu_scale = layer3_1_relu_zero_point = None
    layer3_1_conv2_weight_quantized = getattr(self.layer3, "1").conv2.weight_quantized
    layer3_1_conv2_weight_scale = getattr(self.layer3, "1").conv2.weight_scale
    layer3_1_conv2_weight_zero_point = getattr(self.layer3, "1").conv2.weight_zero_point
    dequantize_linear_14 = onnx.DequantizeLinear(layer3_1_conv2_weight_quantized, layer3_1_conv2_weight_scale, layer3_1_conv2_weight_zero_point, axis = 0);  layer3_1_conv2_weight_quantized = layer3_1_conv2_weight_scale = layer3_1_conv2_weight_zero_point = None
    layer3_1_conv2_bias = getattr(self.layer3, "1").conv2.bias
    layer3_1_conv2 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_14, dequantize_linear_14, layer3_1_conv2_bias, (1, 1), (1, 1), (1, 1), 1);  fake_quantize_per_tensor_affine_14 = dequantize_linear_14 = layer3_1_conv2_bias = None
    add_5 = layer3_1_conv2 + fake_quantize_per_tensor_affine_13;  layer3_1_conv2 = fake_quantize_per_tensor_affine_13 = None
    layer3_1_relu_1 = getattr(self.layer3, "1").relu(add_5);  add_5 = None
    layer3_1_relu_1_scale = self.layer3_1_relu_1_scale
    layer3_1_relu_1_zero_point = self.layer3_1_relu_1_zero_point
    fake_quantize_per_tensor_affine_15 = torch.fake_quantize_per_tensor_affine(layer3_1_relu_1, layer3_1_relu_1_scale, layer3_1_relu_1_zero_point, quant_min = -128, quant_max = 127);  layer3_1_relu_1 = layer3_1_relu_1_scale = layer3_1_relu_1_zero_point = None
    layer4_0_conv1_weight_quantized = getattr(self.layer4, "0").conv1.weight_quantized
    layer4_0_conv1_weight_scale = getattr(self.layer4, "0").conv1.weight_scale
    layer4_0_conv1_weight_zero_point = getattr(self.layer4, "0").conv1.weight_zero_point
    dequantize_linear_15 = onnx.DequantizeLinear(layer4_0_conv1_weight_quantized, layer4_0_conv1_weight_scale, layer4_0_conv1_weight_zero_point, axis = 0);  layer4_0_conv1_weight_quantized = layer4_0_conv1_weight_scale = layer4_0_conv1_weight_zero_point = None
    layer4_0_conv1_bias = getattr(self.layer4, "0").conv1.bias
    layer4_0_conv1 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_15, dequantize_linear_15, layer4_0_conv1_bias, (2, 2), (1, 1), (1, 1), 1);  dequantize_linear_15 = layer4_0_conv1_bias = None
    layer4_0_relu = getattr(self.layer4, "0").relu(layer4_0_conv1);  layer4_0_conv1 = None
    layer4_0_relu_scale = self.layer4_0_relu_scale
    layer4_0_relu_zero_point = self.layer4_0_relu_zero_point
    fake_quantize_per_tensor_affine_16 = torch.fake_quantize_per_tensor_affine(layer4_0_relu, layer4_0_relu_scale, layer4_0_relu_zero_point, quant_min = -128, quant_max = 127);  layer4_0_relu = layer4_0_relu_scale = layer4_0_relu_zero_point = None
    layer4_0_conv2_weight_quantized = getattr(self.layer4, "0").conv2.weight_quantized
    layer4_0_conv2_weight_scale = getattr(self.layer4, "0").conv2.weight_scale
    layer4_0_conv2_weight_zero_point = getattr(self.layer4, "0").conv2.weight_zero_point
    dequantize_linear_16 = onnx.DequantizeLinear(layer4_0_conv2_weight_quantized, layer4_0_conv2_weight_scale, layer4_0_conv2_weight_zero_point, axis = 0);  layer4_0_conv2_weight_quantized = layer4_0_conv2_weight_scale = layer4_0_conv2_weight_zero_point = None
    layer4_0_conv2_bias = getattr(self.layer4, "0").conv2.bias
    layer4_0_conv2 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_16, dequantize_linear_16, layer4_0_conv2_bias, (1, 1), (1, 1), (1, 1), 1);  fake_quantize_per_tensor_affine_16 = dequantize_linear_16 = layer4_0_conv2_bias = None
    layer4_0_downsample_0_weight_quantized = getattr(getattr(self.layer4, "0").downsample, "0").weight_quantized
    layer4_0_downsample_0_weight_scale = getattr(getattr(self.layer4, "0").downsample, "0").weight_scale
    layer4_0_downsample_0_weight_zero_point = getattr(getattr(self.layer4, "0").downsample, "0").weight_zero_point
    dequantize_linear_17 = onnx.DequantizeLinear(layer4_0_downsample_0_weight_quantized, layer4_0_downsample_0_weight_scale, layer4_0_downsample_0_weight_zero_point, axis = 0);  layer4_0_downsample_0_weight_quantized = layer4_0_downsample_0_weight_scale = layer4_0_downsample_0_weight_zero_point = None
    layer4_0_downsample_0_bias = getattr(getattr(self.layer4, "0").downsample, "0").bias
    layer4_0_downsample_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_15, dequantize_linear_17, layer4_0_downsample_0_bias, (2, 2), (0, 0), (1, 1), 1);  fake_quantize_per_tensor_affine_15 = dequantize_linear_17 = layer4_0_downsample_0_bias = None
    layer4_0_downsample_0_scale = self.layer4_0_downsample_0_scale
    layer4_0_downsample_0_zero_point = self.layer4_0_downsample_0_zero_point
    fake_quantize_per_tensor_affine_17 = torch.fake_quantize_per_tensor_affine(layer4_0_downsample_0, layer4_0_downsample_0_scale, layer4_0_downsample_0_zero_point, quant_min = -128, quant_max = 127);  layer4_0_downsample_0 = layer4_0_downsample_0_scale = layer4_0_downsample_0_zero_point = None
    add_6 = layer4_0_conv2 + fake_quantize_per_tensor_affine_17;  layer4_0_conv2 = fake_quantize_per_tensor_affine_17 = None
    layer4_0_relu_1 = getattr(self.layer4, "0").relu(add_6);  add_6 = None
    layer4_0_relu_1_scale = self.layer4_0_relu_1_scale
    layer4_0_relu_1_zero_point = self.layer4_0_relu_1_zero_point
    fake_quantize_per_tensor_affine_18 = torch.fake_quantize_per_tensor_affine(layer4_0_relu_1, layer4_0_relu_1_scale, layer4_0_relu_1_zero_point, quant_min = -128, quant_max = 127);  layer4_0_relu_1 = layer4_0_relu_1_scale = layer4_0_relu_1_zero_point = None
    layer4_1_conv1_weight_quantized = getattr(self.layer4, "1").conv1.weight_quantized
    layer4_1_conv1_weight_scale = getattr(self.layer4, "1").conv1.weight_scale
    layer4_1_conv1_weight_zero_point = getattr(self.layer4, "1").conv1.weight_zero_point
    dequantize_linear_18 = onnx.DequantizeLinear(layer4_1_conv1_weight_quantized, layer4_1_conv1_weight_scale, layer4_1_conv1_weight_zero_point, axis = 0);  layer4_1_conv1_weight_quantized = layer4_1_conv1_weight_scale = layer4_1_conv1_weight_zero_point = None
    layer4_1_conv1_bias = getattr(self.layer4, "1").conv1.bias
    layer4_1_conv1 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_18, dequantize_linear_18, layer4_1_conv1_bias, (1, 1), (1, 1), (1, 1), 1);  dequantize_linear_18 = layer4_1_conv1_bias = None
    layer4_1_relu = getattr(self.layer4, "1").relu(layer4_1_conv1);  layer4_1_conv1 = None
    layer4_1_relu_scale = self.layer4_1_relu_scale
    layer4_1_relu_zero_point = self.layer4_1_relu_zero_point
    fake_quantize_per_tensor_affine_19 = torch.fake_quantize_per_tensor_affine(layer4_1_relu, layer4_1_relu_scale, layer4_1_relu_zero_point, quant_min = -128, quant_max = 127);  layer4_1_relu = layer4_1_relu_scale = layer4_1_relu_zero_point = None
    layer4_1_conv2_weight_quantized = getattr(self.layer4, "1").conv2.weight_quantized
    layer4_1_conv2_weight_scale = getattr(self.layer4, "1").conv2.weight_scale
    layer4_1_conv2_weight_zero_point = getattr(self.layer4, "1").conv2.weight_zero_point
    dequantize_linear_19 = onnx.DequantizeLinear(layer4_1_conv2_weight_quantized, layer4_1_conv2_weight_scale, layer4_1_conv2_weight_zero_point, axis = 0);  layer4_1_conv2_weight_quantized = layer4_1_conv2_weight_scale = layer4_1_conv2_weight_zero_point = None
    layer4_1_conv2_bias = getattr(self.layer4, "1").conv2.bias
    layer4_1_conv2 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_19, dequantize_linear_19, layer4_1_conv2_bias, (1, 1), (1, 1), (1, 1), 1);  fake_quantize_per_tensor_affine_19 = dequantize_linear_19 = layer4_1_conv2_bias = None
    add_7 = layer4_1_conv2 + fake_quantize_per_tensor_affine_18;  layer4_1_conv2 = fake_quantize_per_tensor_affine_18 = None
    layer4_1_relu_1 = getattr(self.layer4, "1").relu(add_7);  add_7 = None
    avgpool = self.avgpool(layer4_1_relu_1);  layer4_1_relu_1 = None
    flatten = torch.flatten(avgpool, 1);  avgpool = None
    flatten_scale = self.flatten_scale
    flatten_zero_point = self.flatten_zero_point
    fake_quantize_per_tensor_affine_20 = torch.fake_quantize_per_tensor_affine(flatten, flatten_scale, flatten_zero_point, quant_min = -128, quant_max = 127);  flatten = flatten_scale = flatten_zero_point = None
    fc_weight_quantized = self.fc.weight_quantized
    fc_weight_scale = self.fc.weight_scale
    fc_weight_zero_point = self.fc.weight_zero_point
    dequantize_linear_20 = onnx.DequantizeLinear(fc_weight_quantized, fc_weight_scale, fc_weight_zero_point, axis = 0);  fc_weight_quantized = fc_weight_scale = fc_weight_zero_point = None
    fc_bias = self.fc.bias
    fc = onnx.Gemm(fake_quantize_per_tensor_affine_20, dequantize_linear_20, fc_bias, alpha = 1.0, beta = 1.0, transB = 1);  fake_quantize_per_tensor_affine_20 = dequantize_linear_20 = fc_bias = None
    return fc
    
