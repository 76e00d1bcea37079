#include "ir/name_space.h"

#include <doctest/doctest.h>

using fxc::ir::NameSpace;
using fxc::ir::snakeCase;

TEST_CASE("names count up per base name, as torch.fx") {
  NameSpace ns;
  CHECK(ns.createName("add") == "add");
  CHECK(ns.createName("add") == "add_1");
  CHECK(ns.createName("add") == "add_2");
  CHECK(ns.createName("mul") == "mul");
}

TEST_CASE("explicit numeric suffixes are kept and advance the base count") {
  NameSpace ns;
  CHECK(ns.createName("add") == "add");
  CHECK(ns.createName("add_1") == "add_1");
  CHECK(ns.createName("add") == "add_2");
  CHECK(ns.createName("add_01") == "add_3");  // "add_01" is add with number 1, taken
  CHECK(ns.createName("relu_1") == "relu_1");
  CHECK(ns.createName("relu") == "relu");
}

TEST_CASE("keywords, builtins and torch.fx's custom builtins get a suffix") {
  NameSpace ns;
  CHECK(ns.createName("input") == "input_1");
  CHECK(ns.createName("getattr") == "getattr_1");
  CHECK(ns.createName("def") == "def_1");
  CHECK(ns.createName("torch") == "torch_1");
  CHECK(ns.createName("inf") == "inf_1");
  CHECK(ns.createName("output") == "output");
}

TEST_CASE("candidates are sanitized to identifiers") {
  NameSpace ns;
  CHECK(ns.createName("layer1.0.conv1") == "layer1_0_conv1");
  CHECK(ns.createName("input.1") == "input_1");
  CHECK(ns.createName("/layer1/Add_output_0") == "_layer1_Add_output_0");
  CHECK(ns.createName("1x") == "_1x");
  CHECK(ns.createName("") == "_unnamed");
  CHECK(ns.createName("a--b") == "a_b");
}

TEST_CASE("snake_case follows torch.fx") {
  CHECK(snakeCase("MaxPool") == "max_pool");
  CHECK(snakeCase("BatchNormalization") == "batch_normalization");
  CHECK(snakeCase("HTTPServer") == "httpserver");
  CHECK(snakeCase("conv1") == "conv1");
}

TEST_CASE("creating many clashing names stays linear") {
  NameSpace ns;
  std::string last;
  for (int i = 0; i < 200000; ++i) last = ns.createName("add");
  CHECK(last == "add_199999");
}
