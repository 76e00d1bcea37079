


def forward(self, input_1 : torch.Tensor) -> torch.Tensor:
    activation_post_process_0 = self.activation_post_process_0(input_1);  input_1 = None
    conv1 = self.conv1(activation_post_process_0);  activation_post_process_0 = None
    relu = self.relu(conv1);  conv1 = None
    maxpool = self.maxpool(relu);  relu = None
    activation_post_process_1 = self.activation_post_process_1(maxpool);  maxpool = None
    layer1_0_conv1 = getattr(self.layer1, "0").conv1(activation_post_process_1)
    layer1_0_relu = getattr(self.layer1, "0").relu(layer1_0_conv1);  layer1_0_conv1 = None
    activation_post_process_2 = self.activation_post_process_2(layer1_0_relu);  layer1_0_relu = None
    layer1_0_conv2 = getattr(self.layer1, "0").conv2(activation_post_process_2);  activation_post_process_2 = None
    add = layer1_0_conv2 + activation_post_process_1;  layer1_0_conv2 = activation_post_process_1 = None
    layer1_0_relu_1 = getattr(self.layer1, "0").relu(add);  add = None
    activation_post_process_3 = self.activation_post_process_3(layer1_0_relu_1);  layer1_0_relu_1 = None
    layer1_1_conv1 = getattr(self.layer1, "1").conv1(activation_post_process_3)
    layer1_1_relu = getattr(self.layer1, "1").relu(layer1_1_conv1);  layer1_1_conv1 = None
    activation_post_process_4 = self.activation_post_process_4(layer1_1_relu);  layer1_1_relu = None
    layer1_1_conv2 = getattr(self.layer1, "1").conv2(activation_post_process_4);  activation_post_process_4 = None
    add_1 = layer1_1_conv2 + activation_post_process_3;  layer1_1_conv2 = activation_post_process_3 = None
    layer1_1_relu_1 = getattr(self.layer1, "1").relu(add_1);  add_1 = None
    activation_post_process_5 = self.activation_post_process_5(layer1_1_relu_1);  layer1_1_relu_1 = None
    layer2_0_conv1 = getattr(self.layer2, "0").conv1(activation_post_process_5)
    layer2_0_relu = getattr(self.layer2, "0").relu(layer2_0_conv1);  layer2_0_conv1 = None
    activation_post_process_6 = self.activation_post_process_6(layer2_0_relu);  layer2_0_relu = None
    layer2_0_conv2 = getattr(self.layer2, "0").conv2(activation_post_process_6);  activation_post_process_6 = None
    layer2_0_downsample_0 = getattr(getattr(self.layer2, "0").downsample, "0")(activation_post_process_5);  activation_post_process_5 = None
    activation_post_process_7 = self.activation_post_process_7(layer2_0_downsample_0);  layer2_0_downsample_0 = None
    add_2 = layer2_0_conv2 + activation_post_process_7;  layer2_0_conv2 = activation_post_process_7 = None
    layer2_0_relu_1 = getattr(self.layer2, "0").relu(add_2);  add_2 = None
    activation_post_process_8 = self.activation_post_process_8(layer2_0_relu_1);  layer2_0_relu_1 = None
    layer2_1_conv1 = getattr(self.layer2, "1").conv1(activation_post_process_8)
    layer2_1_relu = getattr(self.layer2, "1").relu(layer2_1_conv1);  layer2_1_conv1 = None
    activation_post_process_9 = self.activation_post_process_9(layer2_1_relu);  layer2_1_relu = None
    layer2_1_conv2 = getattr(self.layer2, "1").conv2(activation_post_process_9);  activation_post_process_9 = None
    add_3 = layer2_1_conv2 + activation_post_process_8;  layer2_1_conv2 = activation_post_process_8 = None
    layer2_1_relu_1 = getattr(self.layer2, "1").relu(add_3);  add_3 = None
    activation_post_process_10 = self.activation_post_process_10(layer2_1_relu_1);  layer2_1_relu_1 = None
    layer3_0_conv1 = getattr(self.layer3, "0").conv1(activation_post_process_10)
    layer3_0_relu = getattr(self.layer3, "0").relu(layer3_0_conv1);  layer3_0_conv1 = None
    activation_post_process_11 = self.activation_post_process_11(layer3_0_relu);  layer3_0_relu = None
    layer3_0_conv2 = getattr(self.layer3, "0").conv2(activation_post_process_11);  activation_post_process_11 = None
    layer3_0_downsample_0 = getattr(getattr(self.layer3, "0").downsample, "0")(activation_post_process_10);  activation_post_process_10 = None
    activation_post_process_12 = self.activation_post_process_12(layer3_0_downsample_0);  layer3_0_downsample_0 = None
    add_4 = layer3_0_conv2 + activation_post_process_12;  layer3_0_conv2 = activation_post_process_12 = None
    layer3_0_relu_1 = getattr(self.layer3, "0").relu(add_4);  add_4 = None
    activation_post_process_13 = self.activation_post_process_13(layer3_0_relu_1);  layer3_0_relu_1 = None
    layer3_1_conv1 = getattr(self.layer3, "1").conv1(activation_post_process_13)
    layer3_1_relu = getattr(self.layer3, "1").relu(layer3_1_conv1);  layer3_1_conv1 = None
    activation_post_process_14 = self.activation_post_process_14(layer3_1_relu);  layer3_1_relu = None
    layer3_1_conv2 = getattr(self.layer3, "1").conv2(activation_post_process_14);  activation_post_process_14 = None
    add_5 = layer3_1_conv2 + activation_post_process_13;  layer3_1_conv2 = activation_post_process_13 = None
    layer3_1_relu_1 = getattr(self.layer3, "1").relu(add_5);  add_5 = None
    activation_post_process_15 = self.activation_post_process_15(layer3_1_relu_1);  layer3_1_relu_1 = None
    layer4_0_conv1 = getattr(self.layer4, "0").conv1(activation_post_process_15)
    layer4_0_relu = getattr(self.layer4, "0").relu(layer4_0_conv1);  layer4_0_conv1 = None
    activation_post_process_16 = self.activation_post_process_16(layer4_0_relu);  layer4_0_relu = None
    layer4_0_conv2 = getattr(self.layer4, "0").conv2(activation_post_process_16);  activation_post_process_16 = None
    layer4_0_downsample_0 = getattr(getattr(self.layer4, "0").downsample, "0")(activation_post_process_15);  activation_post_process_15 = None
    activation_post_process_17 = self.activation_post_process_17(layer4_0_downsample_0);  layer4_0_downsample_0 = None
    add_6 = layer4_0_conv2 + activation_post_process_17;  layer4_0_conv2 = activation_post_process_17 = None
    layer4_0_relu_1 = getattr(self.layer4, "0").relu(add_6);  add_6 = None
    activation_post_process_18 = self.activation_post_process_18(layer4_0_relu_1);  layer4_0_relu_1 = None
    layer4_1_conv1 = getattr(self.layer4, "1").conv1(activation_post_process_18)
    layer4_1_relu = getattr(self.layer4, "1").relu(layer4_1_conv1);  layer4_1_conv1 = None
    activation_post_process_19 = self.activation_post_process_19(layer4_1_relu);  layer4_1_relu = None
    layer4_1_conv2 = getattr(self.layer4, "1").conv2(activation_post_process_19);  activation_post_process_19 = None
    add_7 = layer4_1_conv2 + activation_post_process_18;  layer4_1_conv2 = activation_post_process_18 = None
    layer4_1_relu_1 = getattr(self.layer4, "1").relu(add_7);  add_7 = None
    avgpool = self.avgpool(layer4_1_relu_1);  layer4_1_relu_1 = None
    flatten = torch.flatten(avgpool, 1);  avgpool = None
    activation_post_process_20 = self.activation_post_process_20(flatten);  flatten = None
    fc = self.fc(activation_post_process_20);  activation_post_process_20 = None
    return fc
    
