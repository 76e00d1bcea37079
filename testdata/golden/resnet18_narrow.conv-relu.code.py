


def forward(self, input_1 : torch.Tensor) -> torch.Tensor:
    conv1 = self.conv1(input_1);  input_1 = None
    maxpool = self.maxpool(conv1);  conv1 = None
    layer1_0_conv1 = getattr(self.layer1, "0").conv1(maxpool)
    layer1_0_conv2 = getattr(self.layer1, "0").conv2(layer1_0_conv1, maxpool);  layer1_0_conv1 = maxpool = None
    layer1_1_conv1 = getattr(self.layer1, "1").conv1(layer1_0_conv2)
    layer1_1_conv2 = getattr(self.layer1, "1").conv2(layer1_1_conv1, layer1_0_conv2);  layer1_1_conv1 = layer1_0_conv2 = None
    layer2_0_conv1 = getattr(self.layer2, "0").conv1(layer1_1_conv2)
    layer2_0_downsample_0 = getattr(getattr(self.layer2, "0").downsample, "0")(layer1_1_conv2);  layer1_1_conv2 = None
    layer2_0_conv2 = getattr(self.layer2, "0").conv2(layer2_0_conv1, layer2_0_downsample_0);  layer2_0_conv1 = layer2_0_downsample_0 = None
    layer2_1_conv1 = getattr(self.layer2, "1").conv1(layer2_0_conv2)
    layer2_1_conv2 = getattr(self.layer2, "1").conv2(layer2_1_conv1, layer2_0_conv2);  layer2_1_conv1 = layer2_0_conv2 = None
    layer3_0_conv1 = getattr(self.layer3, "0").conv1(layer2_1_conv2)
    layer3_0_downsample_0 = getattr(getattr(self.layer3, "0").downsample, "0")(layer2_1_conv2);  layer2_1_conv2 = None
    layer3_0_conv2 = getattr(self.layer3, "0").conv2(layer3_0_conv1, layer3_0_downsample_0);  layer3_0_conv1 = layer3_0_downsample_0 = None
    layer3_1_conv1 = getattr(self.layer3, "1").conv1(layer3_0_conv2)
    layer3_1_conv2 = getattr(self.layer3, "1").conv2(layer3_1_conv1, layer3_0_conv2);  layer3_1_conv1 = layer3_0_conv2 = None
    layer4_0_conv1 = getattr(self.layer4, "0").conv1(layer3_1_conv2)
    layer4_0_downsample_0 = getattr(getattr(self.layer4, "0").downsample, "0")(layer3_1_conv2);  layer3_1_conv2 = None
    layer4_0_conv2 = getattr(self.layer4, "0").conv2(layer4_0_conv1, layer4_0_downsample_0);  layer4_0_conv1 = layer4_0_downsample_0 = None
    layer4_1_conv1 = getattr(self.layer4, "1").conv1(layer4_0_conv2)
    layer4_1_conv2 = getattr(self.layer4, "1").conv2(layer4_1_conv1, layer4_0_conv2);  layer4_1_conv1 = layer4_0_conv2 = None
    avgpool = self.avgpool(layer4_1_conv2);  layer4_1_conv2 = None
    flatten = torch.flatten(avgpool, 1);  avgpool = None
    fc = self.fc(flatten);  flatten = None
    return fc
    
