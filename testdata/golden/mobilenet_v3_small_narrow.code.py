def forward(self, input_1):
    features_0_0 = getattr(getattr(self.features, "0"), "0")(input_1);  input_1 = None
    features_0_1 = getattr(getattr(self.features, "0"), "1")(features_0_0);  features_0_0 = None
    hardsigmoid = torch.nn.functional.hardsigmoid(features_0_1, alpha = 0.16666667)
    mul = features_0_1 * hardsigmoid;  features_0_1 = hardsigmoid = None
    features_1_block_0_0 = getattr(getattr(getattr(self.features, "1").block, "0"), "0")(mul);  mul = None
    features_1_block_0_1 = getattr(getattr(getattr(self.features, "1").block, "0"), "1")(features_1_block_0_0);  features_1_block_0_0 = None
    features_1_block_0_2 = getattr(getattr(getattr(self.features, "1").block, "0"), "2")(features_1_block_0_1);  features_1_block_0_1 = None
    features_1_block_1_avgpool = getattr(getattr(self.features, "1").block, "1").avgpool(features_1_block_0_2)
    features_1_block_1_fc1 = getattr(getattr(self.features, "1").block, "1").fc1(features_1_block_1_avgpool);  features_1_block_1_avgpool = None
    features_1_block_1_activation = getattr(getattr(self.features, "1").block, "1").activation(features_1_block_1_fc1);  features_1_block_1_fc1 = None
    features_1_block_1_fc2 = getattr(getattr(self.features, "1").block, "1").fc2(features_1_block_1_activation);  features_1_block_1_activation = None
    features_1_block_1_scale_activation = getattr(getattr(self.features, "1").block, "1").scale_activation(features_1_block_1_fc2);  features_1_block_1_fc2 = None
    mul_1 = features_1_block_1_scale_activation * features_1_block_0_2;  features_1_block_1_scale_activation = features_1_block_0_2 = None
    features_1_block_2_0 = getattr(getattr(getattr(self.features, "1").block, "2"), "0")(mul_1);  mul_1 = None
    features_1_block_2_1 = getattr(getattr(getattr(self.features, "1").block, "2"), "1")(features_1_block_2_0);  features_1_block_2_0 = None
    features_2_block_0_0 = getattr(getattr(getattr(self.features, "2").block, "0"), "0")(features_1_block_2_1);  features_1_block_2_1 = None
    features_2_block_0_1 = getattr(getattr(getattr(self.features, "2").block, "0"), "1")(features_2_block_0_0);  features_2_block_0_0 = None
    features_2_block_0_2 = getattr(getattr(getattr(self.features, "2").block, "0"), "2")(features_2_block_0_1);  features_2_block_0_1 = None
    features_2_block_1_0 = getattr(getattr(getattr(self.features, "2").block, "1"), "0")(features_2_block_0_2);  features_2_block_0_2 = None
    features_2_block_1_1 = getattr(getattr(getattr(self.features, "2").block, "1"), "1")(features_2_block_1_0);  features_2_block_1_0 = None
    features_2_block_1_2 = getattr(getattr(getattr(self.features, "2").block, "1"), "2")(features_2_block_1_1);  features_2_block_1_1 = None
    features_2_block_2_0 = getattr(getattr(getattr(self.features, "2").block, "2"), "0")(features_2_block_1_2);  features_2_block_1_2 = None
    features_2_block_2_1 = getattr(getattr(getattr(self.features, "2").block, "2"), "1")(features_2_block_2_0);  features_2_block_2_0 = None
    features_3_block_0_0 = getattr(getattr(getattr(self.features, "3").block, "0"), "0")(features_2_block_2_1)
    features_3_block_0_1 = getattr(getattr(getattr(self.features, "3").block, "0"), "1")(features_3_block_0_0);  features_3_block_0_0 = None
    features_3_block_0_2 = getattr(getattr(getattr(self.features, "3").block, "0"), "2")(features_3_block_0_1);  features_3_block_0_1 = None
    features_3_block_1_0 = getattr(getattr(getattr(self.features, "3").block, "1"), "0")(features_3_block_0_2);  features_3_block_0_2 = None
    features_3_block_1_1 = getattr(getattr(getattr(self.features, "3").block, "1"), "1")(features_3_block_1_0);  features_3_block_1_0 = None
    features_3_block_1_2 = getattr(getattr(getattr(self.features, "3").block, "1"), "2")(features_3_block_1_1);  features_3_block_1_1 = None
    features_3_block_2_0 = getattr(getattr(getattr(self.features, "3").block, "2"), "0")(features_3_block_1_2);  features_3_block_1_2 = None
    features_3_block_2_1 = getattr(getattr(getattr(self.features, "3").block, "2"), "1")(features_3_block_2_0);  features_3_block_2_0 = None
    add = features_3_block_2_1 + features_2_block_2_1;  features_3_block_2_1 = features_2_block_2_1 = None
    features_4_block_0_0 = getattr(getattr(getattr(self.features, "4").block, "0"), "0")(add);  add = None
    features_4_block_0_1 = getattr(getattr(getattr(self.features, "4").block, "0"), "1")(features_4_block_0_0);  features_4_block_0_0 = None
    hardsigmoid_1 = torch.nn.functional.hardsigmoid(features_4_block_0_1, alpha = 0.16666667)
    mul_2 = features_4_block_0_1 * hardsigmoid_1;  features_4_block_0_1 = hardsigmoid_1 = None
    features_4_block_1_0 = getattr(getattr(getattr(self.features, "4").block, "1"), "0")(mul_2);  mul_2 = None
    features_4_block_1_1 = getattr(getattr(getattr(self.features, "4").block, "1"), "1")(features_4_block_1_0);  features_4_block_1_0 = None
    hardsigmoid_2 = torch.nn.functional.hardsigmoid(features_4_block_1_1, alpha = 0.16666667)
    mul_3 = features_4_block_1_1 * hardsigmoid_2;  features_4_block_1_1 = hardsigmoid_2 = None
    features_4_block_2_avgpool = getattr(getattr(self.features, "4").block, "2").avgpool(mul_3)
    features_4_block_2_fc1 = getattr(getattr(self.features, "4").block, "2").fc1(features_4_block_2_avgpool);  features_4_block_2_avgpool = None
    features_4_block_2_activation = getattr(getattr(self.features, "4").block, "2").activation(features_4_block_2_fc1);  features_4_block_2_fc1 = None
    features_4_block_2_fc2 = getattr(getattr(self.features, "4").block, "2").fc2(features_4_block_2_activation);  features_4_block_2_activation = None
    features_4_block_2_scale_activation = getattr(getattr(self.features, "4").block, "2").scale_activation(features_4_block_2_fc2);  features_4_block_2_fc2 = None
    mul_4 = features_4_block_2_scale_activation * mul_3;  features_4_block_2_scale_activation = mul_3 = None
    features_4_block_3_0 = getattr(getattr(getattr(self.features, "4").block, "3"), "0")(mul_4);  mul_4 = None
    features_4_block_3_1 = getattr(getattr(getattr(self.features, "4").block, "3"), "1")(features_4_block_3_0);  features_4_block_3_0 = None
    features_5_block_0_0 = getattr(getattr(getattr(self.features, "5").block, "0"), "0")(features_4_block_3_1)
    features_5_block_0_1 = getattr(getattr(getattr(self.features, "5").block, "0"), "1")(features_5_block_0_0);  features_5_block_0_0 = None
    hardsigmoid_3 = torch.nn.functional.hardsigmoid(features_5_block_0_1, alpha = 0.16666667)
    mul_5 = features_5_block_0_1 * hardsigmoid_3;  features_5_block_0_1 = hardsigmoid_3 = None
    features_5_block_1_0 = getattr(getattr(getattr(self.features, "5").block, "1"), "0")(mul_5);  mul_5 = None
    features_5_block_1_1 = getattr(getattr(getattr(self.features, "5").block, "1"), "1")(features_5_block_1_0);  features_5_block_1_0 = None
    hardsigmoid_4 = torch.nn.functional.hardsigmoid(features_5_block_1_1, alpha = 0.16666667)
    mul_6 = features_5_block_1_1 * hardsigmoid_4;  features_5_block_1_1 = hardsigmoid_4 = None
    features_5_block_2_avgpool = getattr(getattr(self.features, "5").block, "2").avgpool(mul_6)
    features_5_block_2_fc1 = getattr(getattr(self.features, "5").block, "2").fc1(features_5_block_2_avgpool);  features_5_block_2_avgpool = None
    features_5_block_2_activation = getattr(getattr(self.features, "5").block, "2").activation(features_5_block_2_fc1);  features_5_block_2_fc1 = None
    features_5_block_2_fc2 = getattr(getattr(self.features, "5").block, "2").fc2(features_5_block_2_activation);  features_5_block_2_activation = None
    features_5_block_2_scale_activation = getattr(getattr(self.features, "5").block, "2").scale_activation(features_5_block_2_fc2);  features_5_block_2_fc2 = None
    mul_7 = features_5_block_2_scale_activation * mul_6;  features_5_block_2_scale_activation = mul_6 = None
    features_5_block_3_0 = getattr(getattr(getattr(self.features, "5").block, "3"), "0")(mul_7);  mul_7 = None
    features_5_block_3_1 = getattr(getattr(getattr(self.features, "5").block, "3"), "1")(features_5_block_3_0);  features_5_block_3_0 = None
    add_1 = features_5_block_3_1 + features_4_block_3_1;  features_5_block_3_1 = features_4_block_3_1 = None
    features_6_block_0_0 = getattr(getattr(getattr(self.features, "6").block, "0"), "0")(add_1)
    features_6_block_0_1 = getattr(getattr(getattr(self.features, "6").block, "0"), "1")(features_6_block_0_0);  features_6_block_0_0 = None
    hardsigmoid_5 = torch.nn.functional.hardsigmoid(features_6_block_0_1, alpha = 0.16666667)
    mul_8 = features_6_block_0_1 * hardsigmoid_5;  features_6_block_0_1 = hardsigmoid_5 = None
    features_6_block_1_0 = getattr(getattr(getattr(self.features, "6").block, "1"), "0")(mul_8);  mul_8 = None
    features_6_block_1_1 = getattr(getattr(getattr(self.features, "6").block, "1"), "1")(features_6_block_1_0);  features_6_block_1_0 = None
    hardsigmoid_6 = torch.nn.functional.hardsigmoid(features_6_block_1_1, alpha = 0.16666667)
    mul_9 = features_6_block_1_1 * hardsigmoid_6;  features_6_block_1_1 = hardsigmoid_6 = None
    features_6_block_2_avgpool = getattr(getattr(self.features, "6").block, "2").avgpool(mul_9)
    features_6_block_2_fc1 = getattr(getattr(self.features, "6").block, "2").fc1(features_6_block_2_avgpool);  features_6_block_2_avgpool = None
    features_6_block_2_activation = getattr(getattr(self.features, "6").block, "2").activation(features_6_block_2_fc1);  features_6_block_2_fc1 = None
    features_6_block_2_fc2 = getattr(getattr(self.features, "6").block, "2").fc2(features_6_block_2_activation);  features_6_block_2_activation = None
    features_6_block_2_scale_activation = getattr(getattr(self.features, "6").block, "2").scale_activation(features_6_block_2_fc2);  features_6_block_2_fc2 = None
    mul_10 = features_6_block_2_scale_activation * mul_9;  features_6_block_2_scale_activation = mul_9 = None
    features_6_block_3_0 = getattr(getattr(getattr(self.features, "6").block, "3"), "0")(mul_10);  mul_10 = None
    features_6_block_3_1 = getattr(getattr(getattr(self.features, "6").block, "3"), "1")(features_6_block_3_0);  features_6_block_3_0 = None
    add_2 = features_6_block_3_1 + add_1;  features_6_block_3_1 = add_1 = None
    features_7_block_0_0 = getattr(getattr(getattr(self.features, "7").block, "0"), "0")(add_2);  add_2 = None
    features_7_block_0_1 = getattr(getattr(getattr(self.features, "7").block, "0"), "1")(features_7_block_0_0);  features_7_block_0_0 = None
    hardsigmoid_7 = torch.nn.functional.hardsigmoid(features_7_block_0_1, alpha = 0.16666667)
    mul_11 = features_7_block_0_1 * hardsigmoid_7;  features_7_block_0_1 = hardsigmoid_7 = None
    features_7_block_1_0 = getattr(getattr(getattr(self.features, "7").block, "1"), "0")(mul_11);  mul_11 = None
    features_7_block_1_1 = getattr(getattr(getattr(self.features, "7").block, "1"), "1")(features_7_block_1_0);  features_7_block_1_0 = None
    hardsigmoid_8 = torch.nn.functional.hardsigmoid(features_7_block_1_1, alpha = 0.16666667)
    mul_12 = features_7_block_1_1 * hardsigmoid_8;  features_7_block_1_1 = hardsigmoid_8 = None
    features_7_block_2_avgpool = getattr(getattr(self.features, "7").block, "2").avgpool(mul_12)
    features_7_block_2_fc1 = getattr(getattr(self.features, "7").block, "2").fc1(features_7_block_2_avgpool);  features_7_block_2_avgpool = None
    features_7_block_2_activation = getattr(getattr(self.features, "7").block, "2").activation(features_7_block_2_fc1);  features_7_block_2_fc1 = None
    features_7_block_2_fc2 = getattr(getattr(self.features, "7").block, "2").fc2(features_7_block_2_activation);  features_7_block_2_activation = None
    features_7_block_2_scale_activation = getattr(getattr(self.features, "7").block, "2").scale_activation(features_7_block_2_fc2);  features_7_block_2_fc2 = None
    mul_13 = features_7_block_2_scale_activation * mul_12;  features_7_block_2_scale_activation = mul_12 = None
    features_7_block_3_0 = getattr(getattr(getattr(self.features, "7").block, "3"), "0")(mul_13);  mul_13 = None
    features_7_block_3_1 = getattr(getattr(getattr(self.features, "7").block, "3"), "1")(features_7_block_3_0);  features_7_block_3_0 = None
    features_8_block_0_0 = getattr(getattr(getattr(self.features, "8").block, "0"), "0")(features_7_block_3_1)
    features_8_block_0_1 = getattr(getattr(getattr(self.features, "8").block, "0"), "1")(features_8_block_0_0);  features_8_block_0_0 = None
    hardsigmoid_9 = torch.nn.functional.hardsigmoid(features_8_block_0_1, alpha = 0.16666667)
    mul_14 = features_8_block_0_1 * hardsigmoid_9;  features_8_block_0_1 = hardsigmoid_9 = None
    features_8_block_1_0 = getattr(getattr(getattr(self.features, "8").block, "1"), "0")(mul_14);  mul_14 = None
    features_8_block_1_1 = getattr(getattr(getattr(self.features, "8").block, "1"), "1")(features_8_block_1_0);  features_8_block_1_0 = None
    hardsigmoid_10 = torch.nn.functional.hardsigmoid(features_8_block_1_1, alpha = 0.16666667)
    mul_15 = features_8_block_1_1 * hardsigmoid_10;  features_8_block_1_1 = hardsigmoid_10 = None
    features_8_block_2_avgpool = getattr(getattr(self.features, "8").block, "2").avgpool(mul_15)
    features_8_block_2_fc1 = getattr(getattr(self.features, "8").block, "2").fc1(features_8_block_2_avgpool);  features_8_block_2_avgpool = None
    features_8_block_2_activation = getattr(getattr(self.features, "8").block, "2").activation(features_8_block_2_fc1);  features_8_block_2_fc1 = None
    features_8_block_2_fc2 = getattr(getattr(self.features, "8").block, "2").fc2(features_8_block_2_activation);  features_8_block_2_activation = None
    features_8_block_2_scale_activation = getattr(getattr(self.features, "8").block, "2").scale_activation(features_8_block_2_fc2);  features_8_block_2_fc2 = None
    mul_16 = features_8_block_2_scale_activation * mul_15;  features_8_block_2_scale_activation = mul_15 = None
    features_8_block_3_0 = getattr(getattr(getattr(self.features, "8").block, "3"), "0")(mul_16);  mul_16 = None
    features_8_block_3_1 = getattr(getattr(getattr(self.features, "8").block, "3"), "1")(features_8_block_3_0);  features_8_block_3_0 = None
    add_3 = features_8_block_3_1 + features_7_block_3_1;  features_8_block_3_1 = features_7_block_3_1 = None
    features_9_block_0_0 = getattr(getattr(getattr(self.features, "9").block, "0"), "0")(add_3);  add_3 = None
    features_9_block_0_1 = getattr(getattr(getattr(self.features, "9").block, "0"), "1")(features_9_block_0_0);  features_9_block_0_0 = None
    hardsigmoid_11 = torch.nn.functional.hardsigmoid(features_9_block_0_1, alpha = 0.16666667)
    mul_17 = features_9_block_0_1 * hardsigmoid_11;  features_9_block_0_1 = hardsigmoid_11 = None
    features_9_block_1_0 = getattr(getattr(getattr(self.features, "9").block, "1"), "0")(mul_17);  mul_17 = None
    features_9_block_1_1 = getattr(getattr(getattr(self.features, "9").block, "1"), "1")(features_9_block_1_0);  features_9_block_1_0 = None
    hardsigmoid_12 = torch.nn.functional.hardsigmoid(features_9_block_1_1, alpha = 0.16666667)
    mul_18 = features_9_block_1_1 * hardsigmoid_12;  features_9_block_1_1 = hardsigmoid_12 = None
    features_9_block_2_avgpool = getattr(getattr(self.features, "9").block, "2").avgpool(mul_18)
    features_9_block_2_fc1 = getattr(getattr(self.features, "9").block, "2").fc1(features_9_block_2_avgpool);  features_9_block_2_avgpool = None
    features_9_block_2_activation = getattr(getattr(self.features, "9").block, "2").activation(features_9_block_2_fc1);  features_9_block_2_fc1 = None
    features_9_block_2_fc2 = getattr(getattr(self.features, "9").block, "2").fc2(features_9_block_2_activation);  features_9_block_2_activation = None
    features_9_block_2_scale_activation = getattr(getattr(self.features, "9").block, "2").scale_activation(features_9_block_2_fc2);  features_9_block_2_fc2 = None
    mul_19 = features_9_block_2_scale_activation * mul_18;  features_9_block_2_scale_activation = mul_18 = None
    features_9_block_3_0 = getattr(getattr(getattr(self.features, "9").block, "3"), "0")(mul_19);  mul_19 = None
    features_9_block_3_1 = getattr(getattr(getattr(self.features, "9").block, "3"), "1")(features_9_block_3_0);  features_9_block_3_0 = None
    features_10_block_0_0 = getattr(getattr(getattr(self.features, "10").block, "0"), "0")(features_9_block_3_1)
    features_10_block_0_1 = getattr(getattr(getattr(self.features, "10").block, "0"), "1")(features_10_block_0_0);  features_10_block_0_0 = None
    hardsigmoid_13 = torch.nn.functional.hardsigmoid(features_10_block_0_1, alpha = 0.16666667)
    mul_20 = features_10_block_0_1 * hardsigmoid_13;  features_10_block_0_1 = hardsigmoid_13 = None
    features_10_block_1_0 = getattr(getattr(getattr(self.features, "10").block, "1"), "0")(mul_20);  mul_20 = None
    features_10_block_1_1 = getattr(getattr(getattr(self.features, "10").block, "1"), "1")(features_10_block_1_0);  features_10_block_1_0 = None
    hardsigmoid_14 = torch.nn.functional.hardsigmoid(features_10_block_1_1, alpha = 0.16666667)
    mul_21 = features_10_block_1_1 * hardsigmoid_14;  features_10_block_1_1 = hardsigmoid_14 = None
    features_10_block_2_avgpool = getattr(getattr(self.features, "10").block, "2").avgpool(mul_21)
    features_10_block_2_fc1 = getattr(getattr(self.features, "10").block, "2").fc1(features_10_block_2_avgpool);  features_10_block_2_avgpool = None
    features_10_block_2_activation = getattr(getattr(self.features, "10").block, "2").activation(features_10_block_2_fc1);  features_10_block_2_fc1 = None
    features_10_block_2_fc2 = getattr(getattr(self.features, "10").block, "2").fc2(features_10_block_2_activation);  features_10_block_2_activation = None
    features_10_block_2_scale_activation = getattr(getattr(self.features, "10").block, "2").scale_activation(features_10_block_2_fc2);  features_10_block_2_fc2 = None
    mul_22 = features_10_block_2_scale_activation * mul_21;  features_10_block_2_scale_activation = mul_21 = None
    features_10_block_3_0 = getattr(getattr(getattr(self.features, "10").block, "3"), "0")(mul_22);  mul_22 = None
    features_10_block_3_1 = getattr(getattr(getattr(self.features, "10").block, "3"), "1")(features_10_block_3_0);  features_10_block_3_0 = None
    add_4 = features_10_block_3_1 + features_9_block_3_1;  features_10_block_3_1 = features_9_block_3_1 = None
    features_11_block_0_0 = getattr(getattr(getattr(self.features, "11").block, "0"), "0")(add_4)
    features_11_block_0_1 = getattr(getattr(getattr(self.features, "11").block, "0"), "1")(features_11_block_0_0);  features_11_block_0_0 = None
    hardsigmoid_15 = torch.nn.functional.hardsigmoid(features_11_block_0_1, alpha = 0.16666667)
    mul_23 = features_11_block_0_1 * hardsigmoid_15;  features_11_block_0_1 = hardsigmoid_15 = None
    features_11_block_1_0 = getattr(getattr(getattr(self.features, "11").block, "1"), "0")(mul_23);  mul_23 = None
    features_11_block_1_1 = getattr(getattr(getattr(self.features, "11").block, "1"), "1")(features_11_block_1_0);  features_11_block_1_0 = None
    hardsigmoid_16 = torch.nn.functional.hardsigmoid(features_11_block_1_1, alpha = 0.16666667)
    mul_24 = features_11_block_1_1 * hardsigmoid_16;  features_11_block_1_1 = hardsigmoid_16 = None
    features_11_block_2_avgpool = getattr(getattr(self.features, "11").block, "2").avgpool(mul_24)
    features_11_block_2_fc1 = getattr(getattr(self.features, "11").block, "2").fc1(features_11_block_2_avgpool);  features_11_block_2_avgpool = None
    features_11_block_2_activation = getattr(getattr(self.features, "11").block, "2").activation(features_11_block_2_fc1);  features_11_block_2_fc1 = None
    features_11_block_2_fc2 = getattr(getattr(self.features, "11").block, "2").fc2(features_11_block_2_activation);  features_11_block_2_activation = None
    features_11_block_2_scale_activation = getattr(getattr(self.features, "11").block, "2").scale_activation(features_11_block_2_fc2);  features_11_block_2_fc2 = None
    mul_25 = features_11_block_2_scale_activation * mul_24;  features_11_block_2_scale_activation = mul_24 = None
    features_11_block_3_0 = getattr(getattr(getattr(self.features, "11").block, "3"), "0")(mul_25);  mul_25 = None
    features_11_block_3_1 = getattr(getattr(getattr(self.features, "11").block, "3"), "1")(features_11_block_3_0);  features_11_block_3_0 = None
    add_5 = features_11_block_3_1 + add_4;  features_11_block_3_1 = add_4 = None
    features_12_0 = getattr(getattr(self.features, "12"), "0")(add_5);  add_5 = None
    features_12_1 = getattr(getattr(self.features, "12"), "1")(features_12_0);  features_12_0 = None
    hardsigmoid_17 = torch.nn.functional.hardsigmoid(features_12_1, alpha = 0.16666667)
    mul_26 = features_12_1 * hardsigmoid_17;  features_12_1 = hardsigmoid_17 = None
    avgpool = self.avgpool(mul_26);  mul_26 = None
    flatten = torch.flatten(avgpool, axis = 1);  avgpool = None
    classifier_0 = getattr(self.classifier, "0")(flatten);  flatten = None
    hardsigmoid_18 = torch.nn.functional.hardsigmoid(classifier_0, alpha = 0.16666667)
    mul_27 = classifier_0 * hardsigmoid_18;  classifier_0 = hardsigmoid_18 = None
    classifier_3 = getattr(self.classifier, "3")(mul_27);  mul_27 = None
    return classifier_3
