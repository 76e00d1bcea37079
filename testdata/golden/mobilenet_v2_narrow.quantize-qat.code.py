


def forward(self, input_1 : torch.Tensor) -> torch.Tensor:
    input_1_scale = self.input_1_scale
    input_1_zero_point = self.input_1_zero_point
    fake_quantize_per_tensor_affine = torch.fake_quantize_per_tensor_affine(input_1, input_1_scale, input_1_zero_point, quant_min = -128, quant_max = 127);  input_1 = input_1_scale = input_1_zero_point = None
    features_0_0_weight = getattr(getattr(self.features, "0"), "0").weight
    features_0_0_weight_scale = getattr(getattr(self.features, "0"), "0").weight_scale
    features_0_0_weight_zero_point = getattr(getattr(self.features, "0"), "0").weight_zero_point
    fake_quantize_per_channel_affine = torch.fake_quantize_per_channel_affine(features_0_0_weight, features_0_0_weight_scale, features_0_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_0_0_weight = features_0_0_weight_scale = features_0_0_weight_zero_point = None
    features_0_0_bias = getattr(getattr(self.features, "0"), "0").bias
    features_0_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine, fake_quantize_per_channel_affine, features_0_0_bias, (2, 2), (1, 1), (1, 1), 1);  fake_quantize_per_tensor_affine = fake_quantize_per_channel_affine = features_0_0_bias = None
    features_0_2 = getattr(getattr(self.features, "0"), "2")(features_0_0);  features_0_0 = None
    features_0_2_scale = self.features_0_2_scale
    features_0_2_zero_point = self.features_0_2_zero_point
    fake_quantize_per_tensor_affine_1 = torch.fake_quantize_per_tensor_affine(features_0_2, features_0_2_scale, features_0_2_zero_point, quant_min = -128, quant_max = 127);  features_0_2 = features_0_2_scale = features_0_2_zero_point = None
    features_1_conv_0_0_weight = getattr(getattr(getattr(self.features, "1").conv, "0"), "0").weight
    features_1_conv_0_0_weight_scale = getattr(getattr(getattr(self.features, "1").conv, "0"), "0").weight_scale
    features_1_conv_0_0_weight_zero_point = getattr(getattr(getattr(self.features, "1").conv, "0"), "0").weight_zero_point
    fake_quantize_per_channel_affine_1 = torch.fake_quantize_per_channel_affine(features_1_conv_0_0_weight, features_1_conv_0_0_weight_scale, features_1_conv_0_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_1_conv_0_0_weight = features_1_conv_0_0_weight_scale = features_1_conv_0_0_weight_zero_point = None
    features_1_conv_0_0_bias = getattr(getattr(getattr(self.features, "1").conv, "0"), "0").bias
    features_1_conv_0_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_1, fake_quantize_per_channel_affine_1, features_1_conv_0_0_bias, (1, 1), (1, 1), (1, 1), 4);  fake_quantize_per_tensor_affine_1 = fake_quantize_per_channel_affine_1 = features_1_conv_0_0_bias = None
    features_1_conv_0_2 = getattr(getattr(getattr(self.features, "1").conv, "0"), "2")(features_1_conv_0_0);  features_1_conv_0_0 = None
    features_1_conv_0_2_scale = self.features_1_conv_0_2_scale
    features_1_conv_0_2_zero_point = self.features_1_conv_0_2_zero_point
    fake_quantize_per_tensor_affine_2 = torch.fake_quantize_per_tensor_affine(features_1_conv_0_2, features_1_conv_0_2_scale, features_1_conv_0_2_zero_point, quant_min = -128, quant_max = 127);  features_1_conv_0_2 = features_1_conv_0_2_scale = features_1_conv_0_2_zero_point = None
    features_1_conv_1_weight = getattr(getattr(self.features, "1").conv, "1").weight
    features_1_conv_1_weight_scale = getattr(getattr(self.features, "1").conv, "1").weight_scale
    features_1_conv_1_weight_zero_point = getattr(getattr(self.features, "1").conv, "1").weight_zero_point
    fake_quantize_per_channel_affine_2 = torch.fake_quantize_per_channel_affine(features_1_conv_1_weight, features_1_conv_1_weight_scale, features_1_conv_1_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_1_conv_1_weight = features_1_conv_1_weight_scale = features_1_conv_1_weight_zero_point = None
    features_1_conv_1_bias = getattr(getattr(self.features, "1").conv, "1").bias
    features_1_conv_1 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_2, fake_quantize_per_channel_affine_2, features_1_conv_1_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_tensor_affine_2 = fake_quantize_per_channel_affine_2 = features_1_conv_1_bias = None
    features_1_conv_1_scale = self.features_1_conv_1_scale
    features_1_conv_1_zero_point = self.features_1_conv_1_zero_point
    fake_quantize_per_tensor_affine_3 = torch.fake_quantize_per_tensor_affine(features_1_conv_1, features_1_conv_1_scale, features_1_conv_1_zero_point, quant_min = -128, quant_max = 127);  features_1_conv_1 = features_1_conv_1_scale = features_1_conv_1_zero_point = None
    features_2_conv_0_0_weight = getattr(getattr(getattr(self.features, "2").conv, "0"), "0").weight
    features_2_conv_0_0_weight_scale = getattr(getattr(getattr(self.features, "2").conv, "0"), "0").weight_scale
    features_2_conv_0_0_weight_zero_point = getattr(getattr(getattr(self.features, "2").conv, "0"), "0").weight_zero_point
    fake_quantize_per_channel_affine_3 = torch.fake_quantize_per_channel_affine(features_2_conv_0_0_weight, features_2_conv_0_0_weight_scale, features_2_conv_0_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_2_conv_0_0_weight = features_2_conv_0_0_weight_scale = features_2_conv_0_0_weight_zero_point = None
    features_2_conv_0_0_bias = getattr(getattr(getattr(self.features, "2").conv, "0"), "0").bias
    features_2_conv_0_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_3, fake_quantize_per_channel_affine_3, features_2_conv_0_0_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_tensor_affine_3 = fake_quantize_per_channel_affine_3 = features_2_conv_0_0_bias = None
    features_2_conv_0_2 = getattr(getattr(getattr(self.features, "2").conv, "0"), "2")(features_2_conv_0_0);  features_2_conv_0_0 = None
    features_2_conv_0_2_scale = self.features_2_conv_0_2_scale
    features_2_conv_0_2_zero_point = self.features_2_conv_0_2_zero_point
    fake_quantize_per_tensor_affine_4 = torch.fake_quantize_per_tensor_affine(features_2_conv_0_2, features_2_conv_0_2_scale, features_2_conv_0_2_zero_point, quant_min = -128, quant_max = 127);  features_2_conv_0_2 = features_2_conv_0_2_scale = features_2_conv_0_2_zero_point = None
    features_2_conv_1_0_weight = getattr(getattr(getattr(self.features, "2").conv, "1"), "0").weight
    features_2_conv_1_0_weight_scale = getattr(getattr(getattr(self.features, "2").conv, "1"), "0").weight_scale
    features_2_conv_1_0_weight_zero_point = getattr(getattr(getattr(self.features, "2").conv, "1"), "0").weight_zero_point
    fake_quantize_per_channel_affine_4 = torch.fake_quantize_per_channel_affine(features_2_conv_1_0_weight, features_2_conv_1_0_weight_scale, features_2_conv_1_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_2_conv_1_0_weight = features_2_conv_1_0_weight_scale = features_2_conv_1_0_weight_zero_point = None
    features_2_conv_1_0_bias = getattr(getattr(getattr(self.features, "2").conv, "1"), "0").bias
    features_2_conv_1_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_4, fake_quantize_per_channel_affine_4, features_2_conv_1_0_bias, (2, 2), (1, 1), (1, 1), 12);  fake_quantize_per_tensor_affine_4 = fake_quantize_per_channel_affine_4 = features_2_conv_1_0_bias = None
    features_2_conv_1_2 = getattr(getattr(getattr(self.features, "2").conv, "1"), "2")(features_2_conv_1_0);  features_2_conv_1_0 = None
    features_2_conv_1_2_scale = self.features_2_conv_1_2_scale
    features_2_conv_1_2_zero_point = self.features_2_conv_1_2_zero_point
    fake_quantize_per_tensor_affine_5 = torch.fake_quantize_per_tensor_affine(features_2_conv_1_2, features_2_conv_1_2_scale, features_2_conv_1_2_zero_point, quant_min = -128, quant_max = 127);  features_2_conv_1_2 = features_2_conv_1_2_scale = features_2_conv_1_2_zero_point = None
    features_2_conv_2_weight = getattr(getattr(self.features, "2").conv, "2").weight
    features_2_conv_2_weight_scale = getattr(getattr(self.features, "2").conv, "2").weight_scale
    features_2_conv_2_weight_zero_point = getattr(getattr(self.features, "2").conv, "2").weight_zero_point
    fake_quantize_per_channel_affine_5 = torch.fake_quantize_per_channel_affine(features_2_conv_2_weight, features_2_conv_2_weight_scale, features_2_conv_2_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_2_conv_2_weight = features_2_conv_2_weight_scale = features_2_conv_2_weight_zero_point = None
    features_2_conv_2_bias = getattr(getattr(self.features, "2").conv, "2").bias
    features_2_conv_2 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_5, fake_quantize_per_channel_affine_5, features_2_conv_2_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_tensor_affine_5 = fake_quantize_per_channel_affine_5 = features_2_conv_2_bias = None
    features_2_conv_2_scale = self.features_2_conv_2_scale
    features_2_conv_2_zero_point = self.features_2_conv_2_zero_point
    fake_quantize_per_tensor_affine_6 = torch.fake_quantize_per_tensor_affine(features_2_conv_2, features_2_conv_2_scale, features_2_conv_2_zero_point, quant_min = -128, quant_max = 127);  features_2_conv_2_scale = features_2_conv_2_zero_point = None
    features_3_conv_0_0_weight = getattr(getattr(getattr(self.features, "3").conv, "0"), "0").weight
    features_3_conv_0_0_weight_scale = getattr(getattr(getattr(self.features, "3").conv, "0"), "0").weight_scale
    features_3_conv_0_0_weight_zero_point = getattr(getattr(getattr(self.features, "3").conv, "0"), "0").weight_zero_point
    fake_quantize_per_channel_affine_6 = torch.fake_quantize_per_channel_affine(features_3_conv_0_0_weight, features_3_conv_0_0_weight_scale, features_3_conv_0_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_3_conv_0_0_weight = features_3_conv_0_0_weight_scale = features_3_conv_0_0_weight_zero_point = None
    features_3_conv_0_0_bias = getattr(getattr(getattr(self.features, "3").conv, "0"), "0").bias
    features_3_conv_0_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_6, fake_quantize_per_channel_affine_6, features_3_conv_0_0_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_tensor_affine_6 = fake_quantize_per_channel_affine_6 = features_3_conv_0_0_bias = None
    features_3_conv_0_2 = getattr(getattr(getattr(self.features, "3").conv, "0"), "2")(features_3_conv_0_0);  features_3_conv_0_0 = None
    features_3_conv_0_2_scale = self.features_3_conv_0_2_scale
    features_3_conv_0_2_zero_point = self.features_3_conv_0_2_zero_point
    fake_quantize_per_tensor_affine_7 = torch.fake_quantize_per_tensor_affine(features_3_conv_0_2, features_3_conv_0_2_scale, features_3_conv_0_2_zero_point, quant_min = -128, quant_max = 127);  features_3_conv_0_2 = features_3_conv_0_2_scale = features_3_conv_0_2_zero_point = None
    features_3_conv_1_0_weight = getattr(getattr(getattr(self.features, "3").conv, "1"), "0").weight
    features_3_conv_1_0_weight_scale = getattr(getattr(getattr(self.features, "3").conv, "1"), "0").weight_scale
    features_3_conv_1_0_weight_zero_point = getattr(getattr(getattr(self.features, "3").conv, "1"), "0").weight_zero_point
    fake_quantize_per_channel_affine_7 = torch.fake_quantize_per_channel_affine(features_3_conv_1_0_weight, features_3_conv_1_0_weight_scale, features_3_conv_1_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_3_conv_1_0_weight = features_3_conv_1_0_weight_scale = features_3_conv_1_0_weight_zero_point = None
    features_3_conv_1_0_bias = getattr(getattr(getattr(self.features, "3").conv, "1"), "0").bias
    features_3_conv_1_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_7, fake_quantize_per_channel_affine_7, features_3_conv_1_0_bias, (1, 1), (1, 1), (1, 1), 18);  fake_quantize_per_tensor_affine_7 = fake_quantize_per_channel_affine_7 = features_3_conv_1_0_bias = None
    features_3_conv_1_2 = getattr(getattr(getattr(self.features, "3").conv, "1"), "2")(features_3_conv_1_0);  features_3_conv_1_0 = None
    features_3_conv_1_2_scale = self.features_3_conv_1_2_scale
    features_3_conv_1_2_zero_point = self.features_3_conv_1_2_zero_point
    fake_quantize_per_tensor_affine_8 = torch.fake_quantize_per_tensor_affine(features_3_conv_1_2, features_3_conv_1_2_scale, features_3_conv_1_2_zero_point, quant_min = -128, quant_max = 127);  features_3_conv_1_2 = features_3_conv_1_2_scale = features_3_conv_1_2_zero_point = None
    features_3_conv_2_weight = getattr(getattr(self.features, "3").conv, "2").weight
    features_3_conv_2_weight_scale = getattr(getattr(self.features, "3").conv, "2").weight_scale
    features_3_conv_2_weight_zero_point = getattr(getattr(self.features, "3").conv, "2").weight_zero_point
    fake_quantize_per_channel_affine_8 = torch.fake_quantize_per_channel_affine(features_3_conv_2_weight, features_3_conv_2_weight_scale, features_3_conv_2_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_3_conv_2_weight = features_3_conv_2_weight_scale = features_3_conv_2_weight_zero_point = None
    features_3_conv_2_bias = getattr(getattr(self.features, "3").conv, "2").bias
    features_3_conv_2 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_8, fake_quantize_per_channel_affine_8, features_3_conv_2_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_tensor_affine_8 = fake_quantize_per_channel_affine_8 = features_3_conv_2_bias = None
    features_3_conv_2_scale = self.features_3_conv_2_scale
    features_3_conv_2_zero_point = self.features_3_conv_2_zero_point
    fake_quantize_per_tensor_affine_9 = torch.fake_quantize_per_tensor_affine(features_3_conv_2, features_3_conv_2_scale, features_3_conv_2_zero_point, quant_min = -128, quant_max = 127);  features_3_conv_2 = features_3_conv_2_scale = features_3_conv_2_zero_point = None
    add = features_2_conv_2 + fake_quantize_per_tensor_affine_9;  features_2_conv_2 = fake_quantize_per_tensor_affine_9 = None
    add_scale = self.add_scale
    add_zero_point = self.add_zero_point
    fake_quantize_per_tensor_affine_10 = torch.fake_quantize_per_tensor_affine(add, add_scale, add_zero_point, quant_min = -128, quant_max = 127);  add = add_scale = add_zero_point = None
    features_4_conv_0_0_weight = getattr(getattr(getattr(self.features, "4").conv, "0"), "0").weight
    features_4_conv_0_0_weight_scale = getattr(getattr(getattr(self.features, "4").conv, "0"), "0").weight_scale
    features_4_conv_0_0_weight_zero_point = getattr(getattr(getattr(self.features, "4").conv, "0"), "0").weight_zero_point
    fake_quantize_per_channel_affine_9 = torch.fake_quantize_per_channel_affine(features_4_conv_0_0_weight, features_4_conv_0_0_weight_scale, features_4_conv_0_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_4_conv_0_0_weight = features_4_conv_0_0_weight_scale = features_4_conv_0_0_weight_zero_point = None
    features_4_conv_0_0_bias = getattr(getattr(getattr(self.features, "4").conv, "0"), "0").bias
    features_4_conv_0_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_10, fake_quantize_per_channel_affine_9, features_4_conv_0_0_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_tensor_affine_10 = fake_quantize_per_channel_affine_9 = features_4_conv_0_0_bias = None
    features_4_conv_0_2 = getattr(getattr(getattr(self.features, "4").conv, "0"), "2")(features_4_conv_0_0);  features_4_conv_0_0 = None
    features_4_conv_0_2_scale = self.features_4_conv_0_2_scale
    features_4_conv_0_2_zero_point = self.features_4_conv_0_2_zero_point
    fake_quantize_per_tensor_affine_11 = torch.fake_quantize_per_tensor_affine(features_4_conv_0_2, features_4_conv_0_2_scale, features_4_conv_0_2_zero_point, quant_min = -128, quant_max = 127);  features_4_conv_0_2 = features_4_conv_0_2_scale = features_4_conv_0_2_zero_point = None
    features_4_conv_1_0_weight = getattr(getattr(getattr(self.features, "4").conv, "1"), "0").weight
    features_4_conv_1_0_weight_scale = getattr(getattr(getattr(self.features, "4").conv, "1"), "0").weight_scale
    features_4_conv_1_0_weight_zero_point = getattr(getattr(getattr(self.features, "4").conv, "1"), "0").weight_zero_point
    fake_quantize_per_channel_affine_10 = torch.fake_quantize_per_channel_affine(features_4_conv_1_0_weight, features_4_conv_1_0_weight_scale, features_4_conv_1_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_4_conv_1_0_weight = features_4_conv_1_0_weight_scale = features_4_conv_1_0_weight_zero_point = None
    features_4_conv_1_0_bias = getattr(getattr(getattr(self.features, "4").conv, "1"), "0").bias
    features_4_conv_1_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_11, fake_quantize_per_channel_affine_10, features_4_conv_1_0_bias, (2, 2), (1, 1), (1, 1), 18);  fake_quantize_per_tensor_affine_11 = fake_quantize_per_channel_affine_10 = features_4_conv_1_0_bias = None
    features_4_conv_1_2 = getattr(getattr(getattr(self.features, "4").conv, "1"), "2")(features_4_conv_1_0);  features_4_conv_1_0 = None
    features_4_conv_1_2_scale = self.features_4_conv_1_2_scale
    features_4_conv_1_2_zero_point = self.features_4_conv_1_2_zero_point
    fake_quantize_per_tensor_affine_12 = torch.fake_quantize_per_tensor_affine(features_4_conv_1_2, features_4_conv_1_2_scale, features_4_conv_1_2_zero_point, quant_min = -128, quant_max = 127);  features_4_conv_1_2 = features_4_conv_1_2_scale = features_4_conv_1_2_zero_point = None
    features_4_conv_2_weight = getattr(getattr(self.features, "4").conv, "2").weight
    features_4_conv_2_weight_scale = getattr(getattr(self.features, "4").conv, "2").weight_scale
    features_4_conv_2_weight_zero_point = getattr(getattr(self.features, "4").conv, "2").weight_zero_point
    fake_quantize_per_channel_affine_11 = torch.fake_quantize_per_channel_affine(features_4_conv_2_weight, features_4_conv_2_weight_scale, features_4_conv_2_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_4_conv_2_weight = features_4_conv_2_weight_scale = features_4_conv_2_weight_zero_point = None
    features_4_conv_2_bias = getattr(getattr(self.features, "4").conv, "2").bias
    features_4_conv_2 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_12, fake_quantize_per_channel_affine_11, features_4_conv_2_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_tensor_affine_12 = fake_quantize_per_channel_affine_11 = features_4_conv_2_bias = None
    features_4_conv_2_scale = self.features_4_conv_2_scale
    features_4_conv_2_zero_point = self.features_4_conv_2_zero_point
    fake_quantize_per_tensor_affine_13 = torch.fake_quantize_per_tensor_affine(features_4_conv_2, features_4_conv_2_scale, features_4_conv_2_zero_point, quant_min = -128, quant_max = 127);  features_4_conv_2_scale = features_4_conv_2_zero_point = None
    features_5_conv_0_0_weight = getattr(getattr(getattr(self.features, "5").conv, "0"), "0").weight
    features_5_conv_0_0_weight_scale = getattr(getattr(getattr(self.features, "5").conv, "0"), "0").weight_scale
    features_5_conv_0_0_weight_zero_point = getattr(getattr(getattr(self.features, "5").conv, "0"), "0").weight_zero_point
    fake_quantize_per_channel_affine_12 = torch.fake_quantize_per_channel_affine(features_5_conv_0_0_weight, features_5_conv_0_0_weight_scale, features_5_conv_0_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_5_conv_0_0_weight = features_5_conv_0_0_weight_scale = features_5_conv_0_0_weight_zero_point = None
    features_5_conv_0_0_bias = getattr(getattr(getattr(self.features, "5").conv, "0"), "0").bias
    features_5_conv_0_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_13, fake_quantize_per_channel_affine_12, features_5_conv_0_0_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_tensor_affine_13 = fake_quantize_per_channel_affine_12 = features_5_conv_0_0_bias = None
    features_5_conv_0_2 = getattr(getattr(getattr(self.features, "5").conv, "0"), "2")(features_5_conv_0_0);  features_5_conv_0_0 = None
    features_5_conv_0_2_scale = self.features_5_conv_0_2_scale
    features_5_conv_0_2_zero_point = self.features_5_conv_0_2_zero_point
    fake_quantize_per_tensor_affine_14 = torch.fake_quantize_per_tensor_affine(features_5_conv_0_2, features_5_conv_0_2_scale, features_5_conv_0_2_zero_point, quant_min = -128, quant_max = 127);  features_5_conv_0_2 = features_5_conv_0_2_scale = features_5_conv_0_2_zero_point = None
    features_5_conv_1_0_weight = getattr(getattr(getattr(self.features, "5").conv, "1"), "0").weight
    features_5_conv_1_0_weight_scale = getattr(getattr(getattr(self.features, "5").conv, "1"), "0").weight_scale
    features_5_conv_1_0_weight_zero_point = getattr(getattr(getattr(self.features, "5").conv, "1"), "0").weight_zero_point
    fake_quantize_per_channel_affine_13 = torch.fake_quantize_per_channel_affine(features_5_conv_1_0_weight, features_5_conv_1_0_weight_scale, features_5_conv_1_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_5_conv_1_0_weight = features_5_conv_1_0_weight_scale = features_5_conv_1_0_weight_zero_point = None
    features_5_conv_1_0_bias = getattr(getattr(getattr(self.features, "5").conv, "1"), "0").bias
    features_5_conv_1_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_14, fake_quantize_per_channel_affine_13, features_5_conv_1_0_bias, (1, 1), (1, 1), (1, 1), 24);  fake_quantize_per_tensor_affine_14 = fake_quantize_per_channel_affine_13 = features_5_conv_1_0_bias = None
    features_5_conv_1_2 = getattr(getattr(getattr(self.features, "5").conv, "1"), "2")(features_5_conv_1_0);  features_5_conv_1_0 = None
    features_5_conv_1_2_scale = self.features_5_conv_1_2_scale
    features_5_conv_1_2_zero_point = self.features_5_conv_1_2_zero_point
    fake_quantize_per_tensor_affine_15 = torch.fake_quantize_per_tensor_affine(features_5_conv_1_2, features_5_conv_1_2_scale, features_5_conv_1_2_zero_point, quant_min = -128, quant_max = 127);  features_5_conv_1_2 = features_5_conv_1_2_scale = features_5_conv_1_2_zero_point = None
    features_5_conv_2_weight = getattr(getattr(self.features, "5").conv, "2").weight
    features_5_conv_2_weight_scale = getattr(getattr(self.features, "5").conv, "2").weight_scale
    features_5_conv_2_weight_zero_point = getattr(getattr(self.features, "5").conv, "2").weight_zero_point
    fake_quantize_per_channel_affine_14 = torch.fake_quantize_per_channel_affine(features_5_conv_2_weight, features_5_conv_2_weight_scale, features_5_conv_2_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_5_conv_2_weight = features_5_conv_2_weight_scale = features_5_conv_2_weight_zero_point = None
    features_5_conv_2_bias = getattr(getattr(self.features, "5").conv, "2").bias
    features_5_conv_2 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_15, fake_quantize_per_channel_affine_14, features_5_conv_2_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_tensor_affine_15 = fake_quantize_per_channel_affine_14 = features_5_conv_2_bias = None
    features_5_conv_2_scale = self.features_5_conv_2_scale
    features_5_conv_2_zero_point = self.features_5_conv_2_zero_point
    fake_quantize_per_tensor_affine_16 = torch.fake_quantize_per_tensor_affine(features_5_conv_2, features_5_conv_2_scale, features_5_conv_2_zero_point, quant_min = -128, quant_max = 127);  features_5_conv_2 = features_5_conv_2_scale = features_5_conv_2_zero_point = None
    add_1 = features_4_conv_2 + fake_quantize_per_tensor_affine_16;  features_4_conv_2 = fake_quantize_per_tensor_affine_16 = None
    add_1_scale = self.add_1_scale
    add_1_zero_point = self.add_1_zero_point
    fake_quantize_per_tensor_affine_17 = torch.fake_quantize_per_tensor_affine(add_1, add_1_scale, add_1_zero_point, quant_min = -128, quant_max = 127);  add_1 = add_1_scale = add_1_zero_point = None
    features_6_conv_0_0_weight = getattr(getattr(getattr(self.features, "6").conv, "0"), "0").weight
    features_6_conv_0_0_weight_scale = getattr(getattr(getattr(self.features, "6").conv, "0"), "0").weight_scale
    features_6_conv_0_0_weight_zero_point = getattr(getattr(getattr(self.features, "6").conv, "0"), "0").weight_zero_point
    fake_quantize_per_channel_affine_15 = torch.fake_quantize_per_channel_affine(features_6_conv_0_0_weight, features_6_conv_0_0_weight_scale, features_6_conv_0_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_6_conv_0_0_weight = features_6_conv_0_0_weight_scale = features_6_conv_0_0_weight_zero_point = None
    features_6_conv_0_0_bias = getattr(getattr(getattr(self.features, "6").conv, "0"), "0").bias
    features_6_conv_0_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_17, fake_quantize_per_channel_affine_15, features_6_conv_0_0_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_channel_affine_15 = features_6_conv_0_0_bias = None
    features_6_conv_0_2 = getattr(getattr(getattr(self.features, "6").conv, "0"), "2")(features_6_conv_0_0);  features_6_conv_0_0 = None
    features_6_conv_0_2_scale = self.features_6_conv_0_2_scale
    features_6_conv_0_2_zero_point = self.features_6_conv_0_2_zero_point
    fake_quantize_per_tensor_affine_18 = torch.fake_quantize_per_tensor_affine(features_6_conv_0_2, features_6_conv_0_2_scale, features_6_conv_0_2_zero_point, quant_min = -128, quant_max = 127);  features_6_conv_0_2 = features_6_conv_0_2_scale = features_6_conv_0_2_zero_point = None
    features_6_conv_1_0_weight = getattr(getattr(getattr(self.features, "6").conv, "1"), "0").weight
    features_6_conv_1_0_weight_scale = getattr(getattr(getattr(self.features, "6").conv, "1"), "0").weight_scale
    features_6_conv_1_0_weight_zero_point = getattr(getattr(getattr(self.features, "6").conv, "1"), "0").weight_zero_point
    fake_quantize_per_channel_affine_16 = torch.fake_quantize_per_channel_affine(features_6_conv_1_0_weight, features_6_conv_1_0_weight_scale, features_6_conv_1_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_6_conv_1_0_weight = features_6_conv_1_0_weight_scale = features_6_conv_1_0_weight_zero_point = None
    features_6_conv_1_0_bias = getattr(getattr(getattr(self.features, "6").conv, "1"), "0").bias
    features_6_conv_1_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_18, fake_quantize_per_channel_affine_16, features_6_conv_1_0_bias, (1, 1), (1, 1), (1, 1), 24);  fake_quantize_per_tensor_affine_18 = fake_quantize_per_channel_affine_16 = features_6_conv_1_0_bias = None
    features_6_conv_1_2 = getattr(getattr(getattr(self.features, "6").conv, "1"), "2")(features_6_conv_1_0);  features_6_conv_1_0 = None
    features_6_conv_1_2_scale = self.features_6_conv_1_2_scale
    features_6_conv_1_2_zero_point = self.features_6_conv_1_2_zero_point
    fake_quantize_per_tensor_affine_19 = torch.fake_quantize_per_tensor_affine(features_6_conv_1_2, features_6_conv_1_2_scale, features_6_conv_1_2_zero_point, quant_min = -128, quant_max = 127);  features_6_conv_1_2 = features_6_conv_1_2_scale = features_6_conv_1_2_zero_point = None
    features_6_conv_2_weight = getattr(getattr(self.features, "6").conv, "2").weight
    features_6_conv_2_weight_scale = getattr(getattr(self.features, "6").conv, "2").weight_scale
    features_6_conv_2_weight_zero_point = getattr(getattr(self.features, "6").conv, "2").weight_zero_point
    fake_quantize_per_channel_affine_17 = torch.fake_quantize_per_channel_affine(features_6_conv_2_weight, features_6_conv_2_weight_scale, features_6_conv_2_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_6_conv_2_weight = features_6_conv_2_weight_scale = features_6_conv_2_weight_zero_point = None
    features_6_conv_2_bias = getattr(getattr(self.features, "6").conv, "2").bias
    features_6_conv_2 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_19, fake_quantize_per_channel_affine_17, features_6_conv_2_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_tensor_affine_19 = fake_quantize_per_channel_affine_17 = features_6_conv_2_bias = None
    add_2 = fake_quantize_per_tensor_affine_17 + features_6_conv_2;  fake_quantize_per_tensor_affine_17 = features_6_conv_2 = None
    add_2_scale = self.add_2_scale
    add_2_zero_point = self.add_2_zero_point
    fake_quantize_per_tensor_affine_20 = torch.fake_quantize_per_tensor_affine(add_2, add_2_scale, add_2_zero_point, quant_min = -128, quant_max = 127);  add_2 = add_2_scale = add_2_zero_point = None
    features_7_conv_0_0_weight = getattr(getattr(getattr(self.features, "7").conv, "0"), "0").weight
    features_7_conv_0_0_weight_scale = getattr(getattr(getattr(self.features, "7").conv, "0"), "0").weight_scale
    features_7_conv_0_0_weight_zero_point = getattr(getattr(getattr(self.features, "7").conv, "0"), "0").weight_zero_point
    fake_quantize_per_channel_affine_18 = torch.fake_quantize_per_channel_affine(features_7_conv_0_0_weight, features_7_conv_0_0_weight_scale, features_7_conv_0_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_7_conv_0_0_weight = features_7_conv_0_0_weight_scale = features_7_conv_0_0_weight_zero_point = None
    features_7_conv_0_0_bias = getattr(getattr(getattr(self.features, "7").conv, "0"), "0").bias
    features_7_conv_0_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_20, fake_quantize_per_channel_affine_18, features_7_conv_0_0_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_tensor_affine_20 = fake_quantize_per_channel_affine_18 = features_7_conv_0_0_bias = None
    features_7_conv_0_2 = getattr(getattr(getattr(self.features, "7").conv, "0"), "2")(features_7_conv_0_0);  features_7_conv_0_0 = None
    features_7_conv_0_2_scale = self.features_7_conv_0_2_scale
    features_7_conv_0_2_zero_point = self.features_7_conv_0_2_zero_point
    fake_quantize_per_tensor_affine_21 = torch.fake_quantize_per_tensor_affine(features_7_conv_0_2, features_7_conv_0_2_scale, features_7_conv_0_2_zero_point, quant_min = -128, quant_max = 127);  features_7_conv_0_2 = features_7_conv_0_2_scale = features_7_conv_0_2_zero_point = None
    features_7_conv_1_0_weight = getattr(getattr(getattr(self.features, "7").conv, "1"), "0").weight
    features_7_conv_1_0_weight_scale = getattr(getattr(getattr(self.features, "7").conv, "1"), "0").weight_scale
    features_7_conv_1_0_weight_zero_point = getattr(getattr(getattr(self.features, "7").conv, "1"), "0").weight_zero_point
    fake_quantize_per_channel_affine_19 = torch.fake_quantize_per_channel_affine(features_7_conv_1_0_weight, features_7_conv_1_0_weight_scale, features_7_conv_1_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_7_conv_1_0_weight = features_7_conv_1_0_weight_scale = features_7_conv_1_0_weight_zero_point = None
    features_7_conv_1_0_bias = getattr(getattr(getattr(self.features, "7").conv, "1"), "0").bias
    features_7_conv_1_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_21, fake_quantize_per_channel_affine_19, features_7_conv_1_0_bias, (2, 2), (1, 1), (1, 1), 24);  fake_quantize_per_tensor_affine_21 = fake_quantize_per_channel_affine_19 = features_7_conv_1_0_bias = None
    features_7_conv_1_2 = getattr(getattr(getattr(self.features, "7").conv, "1"), "2")(features_7_conv_1_0);  features_7_conv_1_0 = None
    features_7_conv_1_2_scale = self.features_7_conv_1_2_scale
    features_7_conv_1_2_zero_point = self.features_7_conv_1_2_zero_point
    fake_quantize_per_tensor_affine_22 = torch.fake_quantize_per_tensor_affine(features_7_conv_1_2, features_7_conv_1_2_scale, features_7_conv_1_2_zero_point, quant_min = -128, quant_max = 127);  features_7_conv_1_2 = features_7_conv_1_2_scale = features_7_conv_1_2_zero_point = None
    features_7_conv_2_weight = getattr(getattr(self.features, "7").conv, "2").weight
    features_7_conv_2_weight_scale = getattr(getattr(self.features, "7").conv, "2").weight_scale
    features_7_conv_2_weight_zero_point = getattr(getattr(self.features, "7").conv, "2").weight_zero_point
    fake_quantize_per_channel_affine_20 = torch.fake_quantize_per_channel_affine(features_7_conv_2_weight, features_7_conv_2_weight_scale, features_7_conv_2_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_7_conv_2_weight = features_7_conv_2_weight_scale = features_7_conv_2_weight_zero_point = None
    features_7_conv_2_bias = getattr(getattr(self.features, "7").conv, "2").bias
    features_7_conv_2 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_22, fake_quantize_per_channel_affine_20, features_7_conv_2_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_tensor_affine_22 = fake_quantize_per_channel_affine_20 = features_7_conv_2_bias = None
    features_7_conv_2_scale = self.features_7_conv_2_scale
    features_7_conv_2_zero_point = self.features_7_conv_2_zero_point
    fake_quantize_per_tensor_affine_23 = torch.fake_quantize_per_tensor_affine(features_7_conv_2, features_7_conv_2_scale, features_7_conv_2_zero_point, quant_min = -128, quant_max = 127);  features_7_conv_2_scale = features_7_conv_2_zero_point = None
    features_8_conv_0_0_weight = getattr(getattr(getattr(self.features, "8").conv, "0"), "0").weight
    features_8_conv_0_0_weight_scale = getattr(getattr(getattr(self.features, "8").conv, "0"), "0").weight_scale
    features_8_conv_0_0_weight_zero_point = getattr(getattr(getattr(self.features, "8").conv, "0"), "0").weight_zero_point
    fake_quantize_per_channel_affine_21 = torch.fake_quantize_per_channel_affine(features_8_conv_0_0_weight, features_8_conv_0_0_weight_scale, features_8_conv_0_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_8_conv_0_0_weight = features_8_conv_0_0_weight_scale = features_8_conv_0_0_weight_zero_point = None
    features_8_conv_0_0_bias = getattr(getattr(getattr(self.features, "8").conv, "0"), "0").bias
    features_8_conv_0_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_23, fake_quantize_per_channel_affine_21, features_8_conv_0_0_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_tensor_affine_23 = fake_quantize_per_channel_affine_21 = features_8_conv_0_0_bias = None
    features_8_conv_0_2 = getattr(getattr(getattr(self.features, "8").conv, "0"), "2")(features_8_conv_0_0);  features_8_conv_0_0 = None
    features_8_conv_0_2_scale = self.features_8_conv_0_2_scale
    features_8_conv_0_2_zero_point = self.features_8_conv_0_2_zero_point
    fake_quantize_per_tensor_affine_24 = torch.fake_quantize_per_tensor_affine(features_8_conv_0_2, features_8_conv_0_2_scale, features_8_conv_0_2_zero_point, quant_min = -128, quant_max = 127);  features_8_conv_0_2 = features_8_conv_0_2_scale = features_8_conv_0_2_zero_point = None
    features_8_conv_1_0_weight = getattr(getattr(getattr(self.features, "8").conv, "1"), "0").weight
    features_8_conv_1_0_weight_scale = getattr(getattr(getattr(self.features, "8").conv, "1"), "0").weight_scale
    features_8_conv_1_0_weight_zero_point = getattr(getattr(getattr(self.features, "8").conv, "1"), "0").weight_zero_point
    fake_quantize_per_channel_affine_22 = torch.fake_quantize_per_channel_affine(features_8_conv_1_0_weight, features_8_conv_1_0_weight_scale, features_8_conv_1_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_8_conv_1_0_weight = features_8_conv_1_0_weight_scale = features_8_conv_1_0_weight_zero_point = None
    features_8_conv_1_0_bias = getattr(getattr(getattr(self.features, "8").conv, "1"), "0").bias
    features_8_conv_1_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_24, fake_quantize_per_channel_affine_22, features_8_conv_1_0_bias, (1, 1), (1, 1), (1, 1), 48);  fake_quantize_per_tensor_affine_24 = fake_quantize_per_channel_affine_22 = features_8_conv_1_0_bias = None
    features_8_conv_1_2 = getattr(getattr(getattr(self.features, "8").conv, "1"), "2")(features_8_conv_1_0);  features_8_conv_1_0 = None
    features_8_conv_1_2_scale = self.features_8_conv_1_2_scale
    features_8_conv_1_2_zero_point = self.features_8_conv_1_2_zero_point
    fake_quantize_per_tensor_affine_25 = torch.fake_quantize_per_tensor_affine(features_8_conv_1_2, features_8_conv_1_2_scale, features_8_conv_1_2_zero_point, quant_min = -128, quant_max = 127);  features_8_conv_1_2 = features_8_conv_1_2_scale = features_8_conv_1_2_zero_point = None
    features_8_conv_2_weight = getattr(getattr(self.features, "8").conv, "2").weight
    features_8_conv_2_weight_scale = getattr(getattr(self.features, "8").conv, "2").weight_scale
    features_8_conv_2_weight_zero_point = getattr(getattr(self.features, "8").conv, "2").weight_zero_point
    fake_quantize_per_channel_affine_23 = torch.fake_quantize_per_channel_affine(features_8_conv_2_weight, features_8_conv_2_weight_scale, features_8_conv_2_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_8_conv_2_weight = features_8_conv_2_weight_scale = features_8_conv_2_weight_zero_point = None
    features_8_conv_2_bias = getattr(getattr(self.features, "8").conv, "2").bias
    features_8_conv_2 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_25, fake_quantize_per_channel_affine_23, features_8_conv_2_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_tensor_affine_25 = fake_quantize_per_channel_affine_23 = features_8_conv_2_bias = None
    features_8_conv_2_scale = self.features_8_conv_2_scale
    features_8_conv_2_zero_point = self.features_8_conv_2_zero_point
    fake_quantize_per_tensor_affine_26 = torch.fake_quantize_per_tensor_affine(features_8_conv_2, features_8_conv_2_scale, features_8_conv_2_zero_point, quant_min = -128, quant_max = 127);  features_8_conv_2 = features_8_conv_2_scale = features_8_conv_2_zero_point = None
    add_3 = features_7_conv_2 + fake_quantize_per_tensor_affine_26;  features_7_conv_2 = fake_quantize_per_tensor_affine_26 = None
    add_3_scale = self.add_3_scale
    add_3_zero_point = self.add_3_zero_point
    fake_quantize_per_tensor_affine_27 = torch.fake_quantize_per_tensor_affine(add_3, add_3_scale, add_3_zero_point, quant_min = -128, quant_max = 127);  add_3 = add_3_scale = add_3_zero_point = None
    features_9_conv_0_0_weight = getattr(getattr(getattr(self.features, "9").conv, "0"), "0").weight
    features_9_conv_0_0_weight_scale = getattr(getattr(getattr(self.features, "9").conv, "0"), "0").weight_scale
    features_9_conv_0_0_weight_zero_point = getattr(getattr(getattr(self.features, "9").conv, "0"), "0").weight_zero_point
    fake_quantize_per_channel_affine_24 = torch.fake_quantize_per_channel_affine(features_9_conv_0_0_weight, features_9_conv_0_0_weight_scale, features_9_conv_0_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_9_conv_0_0_weight = features_9_conv_0_0_weight_scale = features_9_conv_0_0_weight_zero_point = None
    features_9_conv_0_0_bias = getattr(getattr(getattr(self.features, "9").conv, "0"), "0").bias
    features_9_conv_0_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_27, fake_quantize_per_channel_affine_24, features_9_conv_0_0_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_channel_affine_24 = features_9_conv_0_0_bias = None
    features_9_conv_0_2 = getattr(getattr(getattr(self.features, "9").conv, "0"), "2")(features_9_conv_0_0);  features_9_conv_0_0 = None
    features_9_conv_0_2_scale = self.features_9_conv_0_2_scale
    features_9_conv_0_2_zero_point = self.features_9_conv_0_2_zero_point
    fake_quantize_per_tensor_affine_28 = torch.fake_quantize_per_tensor_affine(features_9_conv_0_2, features_9_conv_0_2_scale, features_9_conv_0_2_zero_point, quant_min = -128, quant_max = 127);  features_9_conv_0_2 = features_9_conv_0_2_scale = features_9_conv_0_2_zero_point = None
    features_9_conv_1_0_weight = getattr(getattr(getattr(self.features, "9").conv, "1"), "0").weight
    features_9_conv_1_0_weight_scale = getattr(getattr(getattr(self.features, "9").conv, "1"), "0").weight_scale
    features_9_conv_1_0_weight_zero_point = getattr(getattr(getattr(self.features, "9").conv, "1"), "0").weight_zero_point
    fake_quantize_per_channel_affine_25 = torch.fake_quantize_per_channel_affine(features_9_conv_1_0_weight, features_9_conv_1_0_weight_scale, features_9_conv_1_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_9_conv_1_0_weight = features_9_conv_1_0_weight_scale = features_9_conv_1_0_weight_zero_point = None
    features_9_conv_1_0_bias = getattr(getattr(getattr(self.features, "9").conv, "1"), "0").bias
    features_9_conv_1_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_28, fake_quantize_per_channel_affine_25, features_9_conv_1_0_bias, (1, 1), (1, 1), (1, 1), 48);  fake_quantize_per_tensor_affine_28 = fake_quantize_per_channel_affine_25 = features_9_conv_1_0_bias = None
    features_9_conv_1_2 = getattr(getattr(getattr(self.features, "9").conv, "1"), "2")(features_9_conv_1_0);  features_9_conv_1_0 = None
    features_9_conv_1_2_scale = self.features_9_conv_1_2_scale
    features_9_conv_1_2_zero_point = self.features_9_conv_1_2_zero_point
    fake_quantize_per_tensor_affine_29 = torch.fake_quantize_per_tensor_affine(features_9_conv_1_2, features_9_conv_1_2_scale, features_9_conv_1_2_zero_point, quant_min = -128, quant_max = 127);  features_9_conv_1_2 = features_9_conv_1_2_scale = features_9_conv_1_2_zero_point = None
    features_9_conv_2_weight = getattr(getattr(self.features, "9").conv, "2").weight
    features_9_conv_2_weight_scale = getattr(getattr(self.features, "9").conv, "2").weight_scale
    features_9_conv_2_weight_zero_point = getattr(getattr(self.features, "9").conv, "2").weight_zero_point
    fake_quantize_per_channel_affine_26 = torch.fake_quantize_per_channel_affine(features_9_conv_2_weight, features_9_conv_2_weight_scale, features_9_conv_2_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_9_conv_2_weight = features_9_conv_2_weight_scale = features_9_conv_2_weight_zero_point = None
    features_9_conv_2_bias = getattr(getattr(self.features, "9").conv, "2").bias
    features_9_conv_2 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_29, fake_quantize_per_channel_affine_26, features_9_conv_2_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_tensor_affine_29 = fake_quantize_per_channel_affine_26 = features_9_conv_2_bias = None
    add_4 = fake_quantize_per_tensor_affine_27 + features_9_conv_2;  fake_quantize_per_tensor_affine_27 = features_9_conv_2 = None
    add_4_scale = self.add_4_scale
    add_4_zero_point = self.add_4_zero_point
    fake_quantize_per_tensor_affine_30 = torch.fake_quantize_per_tensor_affine(add_4, add_4_scale, add_4_zero_point, quant_min = -128, quant_max = 127);  add_4 = add_4_scale = add_4_zero_point = None
    features_10_conv_0_0_weight = getattr(getattr(getattr(self.features, "10").conv, "0"), "0").weight
    features_10_conv_0_0_weight_scale = getattr(getattr(getattr(self.features, "10").conv, "0"), "0").weight_scale
    features_10_conv_0_0_weight_zero_point = getattr(getattr(getattr(self.features, "10").conv, "0"), "0").weight_zero_point
    fake_quantize_per_channel_affine_27 = torch.fake_quantize_per_channel_affine(features_10_conv_0_0_weight, features_10_conv_0_0_weight_scale, features_10_conv_0_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_10_conv_0_0_weight = features_10_conv_0_0_weight_scale = features_10_conv_0_0_weight_zero_point = None
    features_10_conv_0_0_bias = getattr(getattr(getattr(self.features, "10").conv, "0"), "0").bias
    features_10_conv_0_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_30, fake_quantize_per_channel_affine_27, features_10_conv_0_0_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_channel_affine_27 = features_10_conv_0_0_bias = None
    features_10_conv_0_2 = getattr(getattr(getattr(self.features, "10").conv, "0"), "2")(features_10_conv_0_0);  features_10_conv_0_0 = None
    features_10_conv_0_2_scale = self.features_10_conv_0_2_scale
    features_10_conv_0_2_zero_point = self.features_10_conv_0_2_zero_point
    fake_quantize_per_tensor_affine_31 = torch.fake_quantize_per_tensor_affine(features_10_conv_0_2, features_10_conv_0_2_scale, features_10_conv_0_2_zero_point, quant_min = -128, quant_max = 127);  features_10_conv_0_2 = features_10_conv_0_2_scale = features_10_conv_0_2_zero_point = None
    features_10_conv_1_0_weight = getattr(getattr(getattr(self.features, "10").conv, "1"), "0").weight
    features_10_conv_1_0_weight_scale = getattr(getattr(getattr(self.features, "10").conv, "1"), "0").weight_scale
    features_10_conv_1_0_weight_zero_point = getattr(getattr(getattr(self.features, "10").conv, "1"), "0").weight_zero_point
    fake_quantize_per_channel_affine_28 = torch.fake_quantize_per_channel_affine(features_10_conv_1_0_weight, features_10_conv_1_0_weight_scale, features_10_conv_1_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_10_conv_1_0_weight = features_10_conv_1_0_weight_scale = features_10_conv_1_0_weight_zero_point = None
    features_10_conv_1_0_bias = getattr(getattr(getattr(self.features, "10").conv, "1"), "0").bias
    features_10_conv_1_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_31, fake_quantize_per_channel_affine_28, features_10_conv_1_0_bias, (1, 1), (1, 1), (1, 1), 48);  fake_quantize_per_tensor_affine_31 = fake_quantize_per_channel_affine_28 = features_10_conv_1_0_bias = None
    features_10_conv_1_2 = getattr(getattr(getattr(self.features, "10").conv, "1"), "2")(features_10_conv_1_0);  features_10_conv_1_0 = None
    features_10_conv_1_2_scale = self.features_10_conv_1_2_scale
    features_10_conv_1_2_zero_point = self.features_10_conv_1_2_zero_point
    fake_quantize_per_tensor_affine_32 = torch.fake_quantize_per_tensor_affine(features_10_conv_1_2, features_10_conv_1_2_scale, features_10_conv_1_2_zero_point, quant_min = -128, quant_max = 127);  features_10_conv_1_2 = features_10_conv_1_2_scale = features_10_conv_1_2_zero_point = None
    features_10_conv_2_weight = getattr(getattr(self.features, "10").conv, "2").weight
    features_10_conv_2_weight_scale = getattr(getattr(self.features, "10").conv, "2").weight_scale
    features_10_conv_2_weight_zero_point = getattr(getattr(self.features, "10").conv, "2").weight_zero_point
    fake_quantize_per_channel_affine_29 = torch.fake_quantize_per_channel_affine(features_10_conv_2_weight, features_10_conv_2_weight_scale, features_10_conv_2_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_10_conv_2_weight = features_10_conv_2_weight_scale = features_10_conv_2_weight_zero_point = None
    features_10_conv_2_bias = getattr(getattr(self.features, "10").conv, "2").bias
    features_10_conv_2 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_32, fake_quantize_per_channel_affine_29, features_10_conv_2_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_tensor_affine_32 = fake_quantize_per_channel_affine_29 = features_10_conv_2_bias = None
    add_5 = fake_quantize_per_tensor_affine_30 + features_10_conv_2;  fake_quantize_per_tensor_affine_30 = features_10_conv_2 = None
    add_5_scale = self.add_5_scale
    add_5_zero_point = self.add_5_zero_point
    fake_quantize_per_tensor_affine_33 = torch.fake_quantize_per_tensor_affine(add_5, add_5_scale, add_5_zero_point, quant_min = -128, quant_max = 127);  add_5 = add_5_scale = add_5_zero_point = None
    features_11_conv_0_0_weight = getattr(getattr(getattr(self.features, "11").conv, "0"), "0").weight
    features_11_conv_0_0_weight_scale = getattr(getattr(getattr(self.features, "11").conv, "0"), "0").weight_scale
    features_11_conv_0_0_weight_zero_point = getattr(getattr(getattr(self.features, "11").conv, "0"), "0").weight_zero_point
    fake_quantize_per_channel_affine_30 = torch.fake_quantize_per_channel_affine(features_11_conv_0_0_weight, features_11_conv_0_0_weight_scale, features_11_conv_0_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_11_conv_0_0_weight = features_11_conv_0_0_weight_scale = features_11_conv_0_0_weight_zero_point = None
    features_11_conv_0_0_bias = getattr(getattr(getattr(self.features, "11").conv, "0"), "0").bias
    features_11_conv_0_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_33, fake_quantize_per_channel_affine_30, features_11_conv_0_0_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_tensor_affine_33 = fake_quantize_per_channel_affine_30 = features_11_conv_0_0_bias = None
    features_11_conv_0_2 = getattr(getattr(getattr(self.features, "11").conv, "0"), "2")(features_11_conv_0_0);  features_11_conv_0_0 = None
    features_11_conv_0_2_scale = self.features_11_conv_0_2_scale
    features_11_conv_0_2_zero_point = self.features_11_conv_0_2_zero_point
    fake_quantize_per_tensor_affine_34 = torch.fake_quantize_per_tensor_affine(features_11_conv_0_2, features_11_conv_0_2_scale, features_11_conv_0_2_zero_point, quant_min = -128, quant_max = 127);  features_11_conv_0_2 = features_11_conv_0_2_scale = features_11_conv_0_2_zero_point = None
    features_11_conv_1_0_weight = getattr(getattr(getattr(self.features, "11").conv, "1"), "0").weight
    features_11_conv_1_0_weight_scale = getattr(getattr(getattr(self.features, "11").conv, "1"), "0").weight_scale
    features_11_conv_1_0_weight_zero_point = getattr(getattr(getattr(self.features, "11").conv, "1"), "0").weight_zero_point
    fake_quantize_per_channel_affine_31 = torch.fake_quantize_per_channel_affine(features_11_conv_1_0_weight, features_11_conv_1_0_weight_scale, features_11_conv_1_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_11_conv_1_0_weight = features_11_conv_1_0_weight_scale = features_11_conv_1_0_weight_zero_point = None
    features_11_conv_1_0_bias = getattr(getattr(getattr(self.features, "11").conv, "1"), "0").bias
    features_11_conv_1_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_34, fake_quantize_per_channel_affine_31, features_11_conv_1_0_bias, (1, 1), (1, 1), (1, 1), 48);  fake_quantize_per_tensor_affine_34 = fake_quantize_per_channel_affine_31 = features_11_conv_1_0_bias = None
    features_11_conv_1_2 = getattr(getattr(getattr(self.features, "11").conv, "1"), "2")(features_11_conv_1_0);  features_11_conv_1_0 = None
    features_11_conv_1_2_scale = self.features_11_conv_1_2_scale
    features_11_conv_1_2_zero_point = self.features_11_conv_1_2_zero_point
    fake_quantize_per_tensor_affine_35 = torch.fake_quantize_per_tensor_affine(features_11_conv_1_2, features_11_conv_1_2_scale, features_11_conv_1_2_zero_point, quant_min = -128, quant_max = 127);  features_11_conv_1_2 = features_11_conv_1_2_scale = features_11_conv_1_2_zero_point = None
    features_11_conv_2_weight = getattr(getattr(self.features, "11").conv, "2").weight
    features_11_conv_2_weight_scale = getattr(getattr(self.features, "11").conv, "2").weight_scale
    features_11_conv_2_weight_zero_point = getattr(getattr(self.features, "11").conv, "2").weight_zero_point
    fake_quantize_per_channel_affine_32 = torch.fake_quantize_per_channel_affine(features_11_conv_2_weight, features_11_conv_2_weight_scale, features_11_conv_2_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_11_conv_2_weight = features_11_conv_2_weight_scale = features_11_conv_2_weight_zero_point = None
    features_11_conv_2_bias = getattr(getattr(self.features, "11").conv, "2").bias
    features_11_conv_2 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_35, fake_quantize_per_channel_affine_32, features_11_conv_2_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_tensor_affine_35 = fake_quantize_per_channel_affine_32 = features_11_conv_2_bias = None
    features_11_conv_2_scale = self.features_11_conv_2_scale
    features_11_conv_2_zero_point = self.features_11_conv_2_zero_point
    fake_quantize_per_tensor_affine_36 = torch.fake_quantize_per_tensor_affine(features_11_conv_2, features_11_conv_2_scale, features_11_conv_2_zero_point, quant_min = -128, quant_max = 127);  features_11_conv_2_scale = features_11_conv_2_zero_point = None
    features_12_conv_0_0_weight = getattr(getattr(getattr(self.features, "12").conv, "0"), "0").weight
    features_12_conv_0_0_weight_scale = getattr(getattr(getattr(self.features, "12").conv, "0"), "0").weight_scale
    features_12_conv_0_0_weight_zero_point = getattr(getattr(getattr(self.features, "12").conv, "0"), "0").weight_zero_point
    fake_quantize_per_channel_affine_33 = torch.fake_quantize_per_channel_affine(features_12_conv_0_0_weight, features_12_conv_0_0_weight_scale, features_12_conv_0_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_12_conv_0_0_weight = features_12_conv_0_0_weight_scale = features_12_conv_0_0_weight_zero_point = None
    features_12_conv_0_0_bias = getattr(getattr(getattr(self.features, "12").conv, "0"), "0").bias
    features_12_conv_0_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_36, fake_quantize_per_channel_affine_33, features_12_conv_0_0_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_tensor_affine_36 = fake_quantize_per_channel_affine_33 = features_12_conv_0_0_bias = None
    features_12_conv_0_2 = getattr(getattr(getattr(self.features, "12").conv, "0"), "2")(features_12_conv_0_0);  features_12_conv_0_0 = None
    features_12_conv_0_2_scale = self.features_12_conv_0_2_scale
    features_12_conv_0_2_zero_point = self.features_12_conv_0_2_zero_point
    fake_quantize_per_tensor_affine_37 = torch.fake_quantize_per_tensor_affine(features_12_conv_0_2, features_12_conv_0_2_scale, features_12_conv_0_2_zero_point, quant_min = -128, quant_max = 127);  features_12_conv_0_2 = features_12_conv_0_2_scale = features_12_conv_0_2_zero_point = None
    features_12_conv_1_0_weight = getattr(getattr(getattr(self.features, "12").conv, "1"), "0").weight
    features_12_conv_1_0_weight_scale = getattr(getattr(getattr(self.features, "12").conv, "1"), "0").weight_scale
    features_12_conv_1_0_weight_zero_point = getattr(getattr(getattr(self.features, "12").conv, "1"), "0").weight_zero_point
    fake_quantize_per_channel_affine_34 = torch.fake_quantize_per_channel_affine(features_12_conv_1_0_weight, features_12_conv_1_0_weight_scale, features_12_conv_1_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_12_conv_1_0_weight = features_12_conv_1_0_weight_scale = features_12_conv_1_0_weight_zero_point = None
    features_12_conv_1_0_bias = getattr(getattr(getattr(self.features, "12").conv, "1"), "0").bias
    features_12_conv_1_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_37, fake_quantize_per_channel_affine_34, features_12_conv_1_0_bias, (1, 1), (1, 1), (1, 1), 72);  fake_quantize_per_tensor_affine_37 = fake_quantize_per_channel_affine_34 = features_12_conv_1_0_bias = None
    features_12_conv_1_2 = getattr(getattr(getattr(self.features, "12").conv, "1"), "2")(features_12_conv_1_0);  features_12_conv_1_0 = None
    features_12_conv_1_2_scale = self.features_12_conv_1_2_scale
    features_12_conv_1_2_zero_point = self.features_12_conv_1_2_zero_point
    fake_quantize_per_tensor_affine_38 = torch.fake_quantize_per_tensor_affine(features_12_conv_1_2, features_12_conv_1_2_scale, features_12_conv_1_2_zero_point, quant_min = -128, quant_max = 127);  features_12_conv_1_2 = features_12_conv_1_2_scale = features_12_conv_1_2_zero_point = None
    features_12_conv_2_weight = getattr(getattr(self.features, "12").conv, "2").weight
    features_12_conv_2_weight_scale = getattr(getattr(self.features, "12").conv, "2").weight_scale
    features_12_conv_2_weight_zero_point = getattr(getattr(self.features, "12").conv, "2").weight_zero_point
    fake_quantize_per_channel_affine_35 = torch.fake_quantize_per_channel_affine(features_12_conv_2_weight, features_12_conv_2_weight_scale, features_12_conv_2_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_12_conv_2_weight = features_12_conv_2_weight_scale = features_12_conv_2_weight_zero_point = None
    features_12_conv_2_bias = getattr(getattr(self.features, "12").conv, "2").bias
    features_12_conv_2 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_38, fake_quantize_per_channel_affine_35, features_12_conv_2_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_tensor_affine_38 = fake_quantize_per_channel_affine_35 = features_12_conv_2_bias = None
    features_12_conv_2_scale = self.features_12_conv_2_scale
    features_12_conv_2_zero_point = self.features_12_conv_2_zero_point
    fake_quantize_per_tensor_affine_39 = torch.fake_quantize_per_tensor_affine(features_12_conv_2, features_12_conv_2_scale, features_12_conv_2_zero_point, quant_min = -128, quant_max = 127);  features_12_conv_2 = features_12_conv_2_scale = features_12_conv_2_zero_point = None
    add_6 = features_11_conv_2 + fake_quantize_per_tensor_affine_39;  features_11_conv_2 = fake_quantize_per_tensor_affine_39 = None
    add_6_scale = self.add_6_scale
    add_6_zero_point = self.add_6_zero_point
    fake_quantize_per_tensor_affine_40 = torch.fake_quantize_per_tensor_affine(add_6, add_6_scale, add_6_zero_point, quant_min = -128, quant_max = 127);  add_6 = add_6_scale = add_6_zero_point = None
    features_13_conv_0_0_weight = getattr(getattr(getattr(self.features, "13").conv, "0"), "0").weight
    features_13_conv_0_0_weight_scale = getattr(getattr(getattr(self.features, "13").conv, "0"), "0").weight_scale
    features_13_conv_0_0_weight_zero_point = getattr(getattr(getattr(self.features, "13").conv, "0"), "0").weight_zero_point
    fake_quantize_per_channel_affine_36 = torch.fake_quantize_per_channel_affine(features_13_conv_0_0_weight, features_13_conv_0_0_weight_scale, features_13_conv_0_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_13_conv_0_0_weight = features_13_conv_0_0_weight_scale = features_13_conv_0_0_weight_zero_point = None
    features_13_conv_0_0_bias = getattr(getattr(getattr(self.features, "13").conv, "0"), "0").bias
    features_13_conv_0_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_40, fake_quantize_per_channel_affine_36, features_13_conv_0_0_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_channel_affine_36 = features_13_conv_0_0_bias = None
    features_13_conv_0_2 = getattr(getattr(getattr(self.features, "13").conv, "0"), "2")(features_13_conv_0_0);  features_13_conv_0_0 = None
    features_13_conv_0_2_scale = self.features_13_conv_0_2_scale
    features_13_conv_0_2_zero_point = self.features_13_conv_0_2_zero_point
    fake_quantize_per_tensor_affine_41 = torch.fake_quantize_per_tensor_affine(features_13_conv_0_2, features_13_conv_0_2_scale, features_13_conv_0_2_zero_point, quant_min = -128, quant_max = 127);  features_13_conv_0_2 = features_13_conv_0_2_scale = features_13_conv_0_2_zero_point = None
    features_13_conv_1_0_weight = getattr(getattr(getattr(self.features, "13").conv, "1"), "0").weight
    features_13_conv_1_0_weight_scale = getattr(getattr(getattr(self.features, "13").conv, "1"), "0").weight_scale
    features_13_conv_1_0_weight_zero_point = getattr(getattr(getattr(self.features, "13").conv, "1"), "0").weight_zero_point
    fake_quantize_per_channel_affine_37 = torch.fake_quantize_per_channel_affine(features_13_conv_1_0_weight, features_13_conv_1_0_weight_scale, features_13_conv_1_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_13_conv_1_0_weight = features_13_conv_1_0_weight_scale = features_13_conv_1_0_weight_zero_point = None
    features_13_conv_1_0_bias = getattr(getattr(getattr(self.features, "13").conv, "1"), "0").bias
    features_13_conv_1_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_41, fake_quantize_per_channel_affine_37, features_13_conv_1_0_bias, (1, 1), (1, 1), (1, 1), 72);  fake_quantize_per_tensor_affine_41 = fake_quantize_per_channel_affine_37 = features_13_conv_1_0_bias = None
    features_13_conv_1_2 = getattr(getattr(getattr(self.features, "13").conv, "1"), "2")(features_13_conv_1_0);  features_13_conv_1_0 = None
    features_13_conv_1_2_scale = self.features_13_conv_1_2_scale
    features_13_conv_1_2_zero_point = self.features_13_conv_1_2_zero_point
    fake_quantize_per_tensor_affine_42 = torch.fake_quantize_per_tensor_affine(features_13_conv_1_2, features_13_conv_1_2_scale, features_13_conv_1_2_zero_point, quant_min = -128, quant_max = 127);  features_13_conv_1_2 = features_13_conv_1_2_scale = features_13_conv_1_2_zero_point = None
    features_13_conv_2_weight = getattr(getattr(self.features, "13").conv, "2").weight
    features_13_conv_2_weight_scale = getattr(getattr(self.features, "13").conv, "2").weight_scale
    features_13_conv_2_weight_zero_point = getattr(getattr(self.features, "13").conv, "2").weight_zero_point
    fake_quantize_per_channel_affine_38 = torch.fake_quantize_per_channel_affine(features_13_conv_2_weight, features_13_conv_2_weight_scale, features_13_conv_2_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_13_conv_2_weight = features_13_conv_2_weight_scale = features_13_conv_2_weight_zero_point = None
    features_13_conv_2_bias = getattr(getattr(self.features, "13").conv, "2").bias
    features_13_conv_2 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_42, fake_quantize_per_channel_affine_38, features_13_conv_2_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_tensor_affine_42 = fake_quantize_per_channel_affine_38 = features_13_conv_2_bias = None
    add_7 = fake_quantize_per_tensor_affine_40 + features_13_conv_2;  fake_quantize_per_tensor_affine_40 = features_13_conv_2 = None
    add_7_scale = self.add_7_scale
    add_7_zero_point = self.add_7_zero_point
    fake_quantize_per_tensor_affine_43 = torch.fake_quantize_per_tensor_affine(add_7, add_7_scale, add_7_zero_point, quant_min = -128, quant_max = 127);  add_7 = add_7_scale = add_7_zero_point = None
    features_14_conv_0_0_weight = getattr(getattr(getattr(self.features, "14").conv, "0"), "0").weight
    features_14_conv_0_0_weight_scale = getattr(getattr(getattr(self.features, "14").conv, "0"), "0").weight_scale
    features_14_conv_0_0_weight_zero_point = getattr(getattr(getattr(self.features, "14").conv, "0"), "0").weight_zero_point
    fake_quantize_per_channel_affine_39 = torch.fake_quantize_per_channel_affine(features_14_conv_0_0_weight, features_14_conv_0_0_weight_scale, features_14_conv_0_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_14_conv_0_0_weight = features_14_conv_0_0_weight_scale = features_14_conv_0_0_weight_zero_point = None
    features_14_conv_0_0_bias = getattr(getattr(getattr(self.features, "14").conv, "0"), "0").bias
    features_14_conv_0_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_43, fake_quantize_per_channel_affine_39, features_14_conv_0_0_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_tensor_affine_43 = fake_quantize_per_channel_affine_39 = features_14_conv_0_0_bias = None
    features_14_conv_0_2 = getattr(getattr(getattr(self.features, "14").conv, "0"), "2")(features_14_conv_0_0);  features_14_conv_0_0 = None
    features_14_conv_0_2_scale = self.features_14_conv_0_2_scale
    features_14_conv_0_2_zero_point = self.features_14_conv_0_2_zero_point
    fake_quantize_per_tensor_affine_44 = torch.fake_quantize_per_tensor_affine(features_14_conv_0_2, features_14_conv_0_2_scale, features_14_conv_0_2_zero_point, quant_min = -128, quant_max = 127);  features_14_conv_0_2 = features_14_conv_0_2_scale = features_14_conv_0_2_zero_point = None
    features_14_conv_1_0_weight = getattr(getattr(getattr(self.features, "14").conv, "1"), "0").weight
    features_14_conv_1_0_weight_scale = getattr(getattr(getattr(self.features, "14").conv, "1"), "0").weight_scale
    features_14_conv_1_0_weight_zero_point = getattr(getattr(getattr(self.features, "14").conv, "1"), "0").weight_zero_point
    fake_quantize_per_channel_affine_40 = torch.fake_quantize_per_channel_affine(features_14_conv_1_0_weight, features_14_conv_1_0_weight_scale, features_14_conv_1_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_14_conv_1_0_weight = features_14_conv_1_0_weight_scale = features_14_conv_1_0_weight_zero_point = None
    features_14_conv_1_0_bias = getattr(getattr(getattr(self.features, "14").conv, "1"), "0").bias
    features_14_conv_1_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_44, fake_quantize_per_channel_affine_40, features_14_conv_1_0_bias, (2, 2), (1, 1), (1, 1), 72);  fake_quantize_per_tensor_affine_44 = fake_quantize_per_channel_affine_40 = features_14_conv_1_0_bias = None
    features_14_conv_1_2 = getattr(getattr(getattr(self.features, "14").conv, "1"), "2")(features_14_conv_1_0);  features_14_conv_1_0 = None
    features_14_conv_1_2_scale = self.features_14_conv_1_2_scale
    features_14_conv_1_2_zero_point = self.features_14_conv_1_2_zero_point
    fake_quantize_per_tensor_affine_45 = torch.fake_quantize_per_tensor_affine(features_14_conv_1_2, features_14_conv_1_2_scale, features_14_conv_1_2_zero_point, quant_min = -128, quant_max = 127);  features_14_conv_1_2 = features_14_conv_1_2_scale = features_14_conv_1_2_zero_point = None
    features_14_conv_2_weight = getattr(getattr(self.features, "14").conv, "2").weight
    features_14_conv_2_weight_scale = getattr(getattr(self.features, "14").conv, "2").weight_scale
    features_14_conv_2_weight_zero_point = getattr(getattr(self.features, "14").conv, "2").weight_zero_point
    fake_quantize_per_channel_affine_41 = torch.fake_quantize_per_channel_affine(features_14_conv_2_weight, features_14_conv_2_weight_scale, features_14_conv_2_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_14_conv_2_weight = features_14_conv_2_weight_scale = features_14_conv_2_weight_zero_point = None
    features_14_conv_2_bias = getattr(getattr(self.features, "14").conv, "2").bias
    features_14_conv_2 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_45, fake_quantize_per_channel_affine_41, features_14_conv_2_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_tensor_affine_45 = fake_quantize_per_channel_affine_41 = features_14_conv_2_bias = None
    features_14_conv_2_scale = self.features_14_conv_2_scale
    features_14_conv_2_zero_point = self.features_14_conv_2_zero_point
    fake_quantize_per_tensor_affine_46 = torch.fake_quantize_per_tensor_affine(features_14_conv_2, features_14_conv_2_scale, features_14_conv_2_zero_point, quant_min = -128, quant_max = 127);  features_14_conv_2_scale = features_14_conv_2_zero_point = None
    features_15_conv_0_0_weight = getattr(getattr(getattr(self.features, "15").conv, "0"), "0").weight
    features_15_conv_0_0_weight_scale = getattr(getattr(getattr(self.features, "15").conv, "0"), "0").weight_scale
    features_15_conv_0_0_weight_zero_point = getattr(getattr(getattr(self.features, "15").conv, "0"), "0").weight_zero_point
    fake_quantize_per_channel_affine_42 = torch.fake_quantize_per_channel_affine(features_15_conv_0_0_weight, features_15_conv_0_0_weight_scale, features_15_conv_0_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_15_conv_0_0_weight = features_15_conv_0_0_weight_scale = features_15_conv_0_0_weight_zero_point = None
    features_15_conv_0_0_bias = getattr(getattr(getattr(self.features, "15").conv, "0"), "0").bias
    features_15_conv_0_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_46, fake_quantize_per_channel_affine_42, features_15_conv_0_0_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_tensor_affine_46 = fake_quantize_per_channel_affine_42 = features_15_conv_0_0_bias = None
    features_15_conv_0_2 = getattr(getattr(getattr(self.features, "15").conv, "0"), "2")(features_15_conv_0_0);  features_15_conv_0_0 = None
    features_15_conv_0_2_scale = self.features_15_conv_0_2_scale
    features_15_conv_0_2_zero_point = self.features_15_conv_0_2_zero_point
    fake_quantize_per_tensor_affine_47 = torch.fake_quantize_per_tensor_affine(features_15_conv_0_2, features_15_conv_0_2_scale, features_15_conv_0_2_zero_point, quant_min = -128, quant_max = 127);  features_15_conv_0_2 = features_15_conv_0_2_scale = features_15_conv_0_2_zero_point = None
    features_15_conv_1_0_weight = getattr(getattr(getattr(self.features, "15").conv, "1"), "0").weight
    features_15_conv_1_0_weight_scale = getattr(getattr(getattr(self.features, "15").conv, "1"), "0").weight_scale
    features_15_conv_1_0_weight_zero_point = getattr(getattr(getattr(self.features, "15").conv, "1"), "0").weight_zero_point
    fake_quantize_per_channel_affine_43 = torch.fake_quantize_per_channel_affine(features_15_conv_1_0_weight, features_15_conv_1_0_weight_scale, features_15_conv_1_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_15_conv_1_0_weight = features_15_conv_1_0_weight_scale = features_15_conv_1_0_weight_zero_point = None
    features_15_conv_1_0_bias = getattr(getattr(getattr(self.features, "15").conv, "1"), "0").bias
    features_15_conv_1_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_47, fake_quantize_per_channel_affine_43, features_15_conv_1_0_bias, (1, 1), (1, 1), (1, 1), 120);  fake_quantize_per_tensor_affine_47 = fake_quantize_per_channel_affine_43 = features_15_conv_1_0_bias = None
    features_15_conv_1_2 = getattr(getattr(getattr(self.features, "15").conv, "1"), "2")(features_15_conv_1_0);  features_15_conv_1_0 = None
    features_15_conv_1_2_scale = self.features_15_conv_1_2_scale
    features_15_conv_1_2_zero_point = self.features_15_conv_1_2_zero_point
    fake_quantize_per_tensor_affine_48 = torch.fake_quantize_per_tensor_affine(features_15_conv_1_2, features_15_conv_1_2_scale, features_15_conv_1_2_zero_point, quant_min = -128, quant_max = 127);  features_15_conv_1_2 = features_15_conv_1_2_scale = features_15_conv_1_2_zero_point = None
    features_15_conv_2_weight = getattr(getattr(self.features, "15").conv, "2").weight
    features_15_conv_2_weight_scale = getattr(getattr(self.features, "15").conv, "2").weight_scale
    features_15_conv_2_weight_zero_point = getattr(getattr(self.features, "15").conv, "2").weight_zero_point
    fake_quantize_per_channel_affine_44 = torch.fake_quantize_per_channel_affine(features_15_conv_2_weight, features_15_conv_2_weight_scale, features_15_conv_2_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_15_conv_2_weight = features_15_conv_2_weight_scale = features_15_conv_2_weight_zero_point = None
    features_15_conv_2_bias = getattr(getattr(self.features, "15").conv, "2").bias
    features_15_conv_2 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_48, fake_quantize_per_channel_affine_44, features_15_conv_2_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_tensor_affine_48 = fake_quantize_per_channel_affine_44 = features_15_conv_2_bias = None
    features_15_conv_2_scale = self.features_15_conv_2_scale
    features_15_conv_2_zero_point = self.features_15_conv_2_zero_point
    fake_quantize_per_tensor_affine_49 = torch.fake_quantize_per_tensor_affine(features_15_conv_2, features_15_conv_2_scale, features_15_conv_2_zero_point, quant_min = -128, quant_max = 127);  features_15_conv_2 = features_15_conv_2_scale = features_15_conv_2_zero_point = None
    add_8 = features_14_conv_2 + fake_quantize_per_tensor_affine_49;  features_14_conv_2 = fake_quantize_per_tensor_affine_49 = None
    add_8_scale = self.add_8_scale
    add_8_zero_point = self.add_8_zero_point
    fake_quantize_per_tensor_affine_50 = torch.fake_quantize_per_tensor_affine(add_8, add_8_scale, add_8_zero_point, quant_min = -128, quant_max = 127);  add_8 = add_8_scale = add_8_zero_point = None
    features_16_conv_0_0_weight = getattr(getattr(getattr(self.features, "16").conv, "0"), "0").weight
    features_16_conv_0_0_weight_scale = getattr(getattr(getattr(self.features, "16").conv, "0"), "0").weight_scale
    features_16_conv_0_0_weight_zero_point = getattr(getattr(getattr(self.features, "16").conv, "0"), "0").weight_zero_point
    fake_quantize_per_channel_affine_45 = torch.fake_quantize_per_channel_affine(features_16_conv_0_0_weight, features_16_conv_0_0_weight_scale, features_16_conv_0_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_16_conv_0_0_weight = features_16_conv_0_0_weight_scale = features_16_conv_0_0_weight_zero_point = None
    features_16_conv_0_0_bias = getattr(getattr(getattr(self.features, "16").conv, "0"), "0").bias
    features_16_conv_0_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_50, fake_quantize_per_channel_affine_45, features_16_conv_0_0_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_channel_affine_45 = features_16_conv_0_0_bias = None
    features_16_conv_0_2 = getattr(getattr(getattr(self.features, "16").conv, "0"), "2")(features_16_conv_0_0);  features_16_conv_0_0 = None
    features_16_conv_0_2_scale = self.features_16_conv_0_2_scale
    features_16_conv_0_2_zero_point = self.features_16_conv_0_2_zero_point
    fake_quantize_per_tensor_affine_51 = torch.fake_quantize_per_tensor_affine(features_16_conv_0_2, features_16_conv_0_2_scale, features_16_conv_0_2_zero_point, quant_min = -128, quant_max = 127);  features_16_conv_0_2 = features_16_conv_0_2_scale = features_16_conv_0_2_zero_point = None
    features_16_conv_1_0_weight = getattr(getattr(getattr(self.features, "16").conv, "1"), "0").weight
    features_16_conv_1_0_weight_scale = getattr(getattr(getattr(self.features, "16").conv, "1"), "0").weight_scale
    features_16_conv_1_0_weight_zero_point = getattr(getattr(getattr(self.features, "16").conv, "1"), "0").weight_zero_point
    fake_quantize_per_channel_affine_46 = torch.fake_quantize_per_channel_affine(features_16_conv_1_0_weight, features_16_conv_1_0_weight_scale, features_16_conv_1_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_16_conv_1_0_weight = features_16_conv_1_0_weight_scale = features_16_conv_1_0_weight_zero_point = None
    features_16_conv_1_0_bias = getattr(getattr(getattr(self.features, "16").conv, "1"), "0").bias
    features_16_conv_1_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_51, fake_quantize_per_channel_affine_46, features_16_conv_1_0_bias, (1, 1), (1, 1), (1, 1), 120);  fake_quantize_per_tensor_affine_51 = fake_quantize_per_channel_affine_46 = features_16_conv_1_0_bias = None
    features_16_conv_1_2 = getattr(getattr(getattr(self.features, "16").conv, "1"), "2")(features_16_conv_1_0);  features_16_conv_1_0 = None
    features_16_conv_1_2_scale = self.features_16_conv_1_2_scale
    features_16_conv_1_2_zero_point = self.features_16_conv_1_2_zero_point
    fake_quantize_per_tensor_affine_52 = torch.fake_quantize_per_tensor_affine(features_16_conv_1_2, features_16_conv_1_2_scale, features_16_conv_1_2_zero_point, quant_min = -128, quant_max = 127);  features_16_conv_1_2 = features_16_conv_1_2_scale = features_16_conv_1_2_zero_point = None
    features_16_conv_2_weight = getattr(getattr(self.features, "16").conv, "2").weight
    features_16_conv_2_weight_scale = getattr(getattr(self.features, "16").conv, "2").weight_scale
    features_16_conv_2_weight_zero_point = getattr(getattr(self.features, "16").conv, "2").weight_zero_point
    fake_quantize_per_channel_affine_47 = torch.fake_quantize_per_channel_affine(features_16_conv_2_weight, features_16_conv_2_weight_scale, features_16_conv_2_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_16_conv_2_weight = features_16_conv_2_weight_scale = features_16_conv_2_weight_zero_point = None
    features_16_conv_2_bias = getattr(getattr(self.features, "16").conv, "2").bias
    features_16_conv_2 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_52, fake_quantize_per_channel_affine_47, features_16_conv_2_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_tensor_affine_52 = fake_quantize_per_channel_affine_47 = features_16_conv_2_bias = None
    add_9 = fake_quantize_per_tensor_affine_50 + features_16_conv_2;  fake_quantize_per_tensor_affine_50 = features_16_conv_2 = None
    add_9_scale = self.add_9_scale
    add_9_zero_point = self.add_9_zero_point
    fake_quantize_per_tensor_affine_53 = torch.fake_quantize_per_tensor_affine(add_9, add_9_scale, add_9_zero_point, quant_min = -128, quant_max = 127);  add_9 = add_9_scale = add_9_zero_point = None
    features_17_conv_0_0_weight = getattr(getattr(getattr(self.features, "17").conv, "0"), "0").weight
    features_17_conv_0_0_weight_scale = getattr(getattr(getattr(self.features, "17").conv, "0"), "0").weight_scale
    features_17_conv_0_0_weight_zero_point = getattr(getattr(getattr(self.features, "17").conv, "0"), "0").weight_zero_point
    fake_quantize_per_channel_affine_48 = torch.fake_quantize_per_channel_affine(features_17_conv_0_0_weight, features_17_conv_0_0_weight_scale, features_17_conv_0_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_17_conv_0_0_weight = features_17_conv_0_0_weight_scale = features_17_conv_0_0_weight_zero_point = None
    features_17_conv_0_0_bias = getattr(getattr(getattr(self.features, "17").conv, "0"), "0").bias
    features_17_conv_0_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_53, fake_quantize_per_channel_affine_48, features_17_conv_0_0_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_tensor_affine_53 = fake_quantize_per_channel_affine_48 = features_17_conv_0_0_bias = None
    features_17_conv_0_2 = getattr(getattr(getattr(self.features, "17").conv, "0"), "2")(features_17_conv_0_0);  features_17_conv_0_0 = None
    features_17_conv_0_2_scale = self.features_17_conv_0_2_scale
    features_17_conv_0_2_zero_point = self.features_17_conv_0_2_zero_point
    fake_quantize_per_tensor_affine_54 = torch.fake_quantize_per_tensor_affine(features_17_conv_0_2, features_17_conv_0_2_scale, features_17_conv_0_2_zero_point, quant_min = -128, quant_max = 127);  features_17_conv_0_2 = features_17_conv_0_2_scale = features_17_conv_0_2_zero_point = None
    features_17_conv_1_0_weight = getattr(getattr(getattr(self.features, "17").conv, "1"), "0").weight
    features_17_conv_1_0_weight_scale = getattr(getattr(getattr(self.features, "17").conv, "1"), "0").weight_scale
    features_17_conv_1_0_weight_zero_point = getattr(getattr(getattr(self.features, "17").conv, "1"), "0").weight_zero_point
    fake_quantize_per_channel_affine_49 = torch.fake_quantize_per_channel_affine(features_17_conv_1_0_weight, features_17_conv_1_0_weight_scale, features_17_conv_1_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_17_conv_1_0_weight = features_17_conv_1_0_weight_scale = features_17_conv_1_0_weight_zero_point = None
    features_17_conv_1_0_bias = getattr(getattr(getattr(self.features, "17").conv, "1"), "0").bias
    features_17_conv_1_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_54, fake_quantize_per_channel_affine_49, features_17_conv_1_0_bias, (1, 1), (1, 1), (1, 1), 120);  fake_quantize_per_tensor_affine_54 = fake_quantize_per_channel_affine_49 = features_17_conv_1_0_bias = None
    features_17_conv_1_2 = getattr(getattr(getattr(self.features, "17").conv, "1"), "2")(features_17_conv_1_0);  features_17_conv_1_0 = None
    features_17_conv_1_2_scale = self.features_17_conv_1_2_scale
    features_17_conv_1_2_zero_point = self.features_17_conv_1_2_zero_point
    fake_quantize_per_tensor_affine_55 = torch.fake_quantize_per_tensor_affine(features_17_conv_1_2, features_17_conv_1_2_scale, features_17_conv_1_2_zero_point, quant_min = -128, quant_max = 127);  features_17_conv_1_2 = features_17_conv_1_2_scale = features_17_conv_1_2_zero_point = None
    features_17_conv_2_weight = getattr(getattr(self.features, "17").conv, "2").weight
    features_17_conv_2_weight_scale = getattr(getattr(self.features, "17").conv, "2").weight_scale
    features_17_conv_2_weight_zero_point = getattr(getattr(self.features, "17").conv, "2").weight_zero_point
    fake_quantize_per_channel_affine_50 = torch.fake_quantize_per_channel_affine(features_17_conv_2_weight, features_17_conv_2_weight_scale, features_17_conv_2_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_17_conv_2_weight = features_17_conv_2_weight_scale = features_17_conv_2_weight_zero_point = None
    features_17_conv_2_bias = getattr(getattr(self.features, "17").conv, "2").bias
    features_17_conv_2 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_55, fake_quantize_per_channel_affine_50, features_17_conv_2_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_tensor_affine_55 = fake_quantize_per_channel_affine_50 = features_17_conv_2_bias = None
    features_17_conv_2_scale = self.features_17_conv_2_scale
    features_17_conv_2_zero_point = self.features_17_conv_2_zero_point
    fake_quantize_per_tensor_affine_56 = torch.fake_quantize_per_tensor_affine(features_17_conv_2, features_17_conv_2_scale, features_17_conv_2_zero_point, quant_min = -128, quant_max = 127);  features_17_conv_2 = features_17_conv_2_scale = features_17_conv_2_zero_point = None
    features_18_0_weight = getattr(getattr(self.features, "18"), "0").weight
    features_18_0_weight_scale = getattr(getattr(self.features, "18"), "0").weight_scale
    features_18_0_weight_zero_point = getattr(getattr(self.features, "18"), "0").weight_zero_point
    fake_quantize_per_channel_affine_51 = torch.fake_quantize_per_channel_affine(features_18_0_weight, features_18_0_weight_scale, features_18_0_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  features_18_0_weight = features_18_0_weight_scale = features_18_0_weight_zero_point = None
    features_18_0_bias = getattr(getattr(self.features, "18"), "0").bias
    features_18_0 = torch.nn.functional.conv2d(fake_quantize_per_tensor_affine_56, fake_quantize_per_channel_affine_51, features_18_0_bias, (1, 1), (0, 0), (1, 1), 1);  fake_quantize_per_tensor_affine_56 = fake_quantize_per_channel_affine_51 = features_18_0_bias = None
    features_18_2 = getattr(getattr(self.features, "18"), "2")(features_18_0);  features_18_0 = None
    adaptive_avg_pool2d = torch.nn.functional.adaptive_avg_pool2d(features_18_2, (1, 1));  features_18_2 = None
    flatten = torch.flatten(adaptive_avg_pool2d, 1);  adaptive_avg_pool2d = None
    flatten_scale = self.flatten_scale
    flatten_zero_point = self.flatten_zero_point
    fake_quantize_per_tensor_affine_57 = torch.fake_quantize_per_tensor_affine(flatten, flatten_scale, flatten_zero_point, quant_min = -128, quant_max = 127);  flatten = flatten_scale = flatten_zero_point = None
    classifier_1_weight = getattr(self.classifier, "1").weight
    classifier_1_weight_scale = getattr(self.classifier, "1").weight_scale
    classifier_1_weight_zero_point = getattr(self.classifier, "1").weight_zero_point
    fake_quantize_per_channel_affine_52 = torch.fake_quantize_per_channel_affine(classifier_1_weight, classifier_1_weight_scale, classifier_1_weight_zero_point, axis = 0, quant_min = -127, quant_max = 127);  classifier_1_weight = classifier_1_weight_scale = classifier_1_weight_zero_point = None
    classifier_1_bias = getattr(self.classifier, "1").bias
    classifier_1 = onnx.Gemm(fake_quantize_per_tensor_affine_57, fake_quantize_per_channel_affine_52, classifier_1_bias, alpha = 1.0, beta = 1.0, transB = 1);  fake_quantize_per_tensor_affine_57 = fake_quantize_per_channel_affine_52 = classifier_1_bias = None
    return classifier_1
    
