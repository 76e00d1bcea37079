// Shared by the kernel files: registration entry points and helpers.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "exec/kernel.h"

namespace fxc::exec {

using KernelTable = std::unordered_map<std::string, Kernel>;
void addElementwiseKernels(KernelTable& table);  // unary, binary with broadcasting, comparisons
void addTensorKernels(KernelTable& table);       // shape, reshape, concat, transpose, gather, ...
void addNeuralNetKernels(KernelTable& table);    // conv, batchnorm, gemm, matmul, pooling, softmax
void addReductionKernels(KernelTable& table);    // ReduceX, ArgMax/ArgMin
void addLossKernels(KernelTable& table);         // NegativeLogLikelihoodLoss, SoftmaxCrossEntropy

// Registers `kernel` under every key.
void add(KernelTable& table, std::initializer_list<const char*> keys, const Kernel& kernel);
// A negative axis counts from the end; throws when out of range.
size_t normalizeAxis(int64_t axis, size_t rank);
// Row-major strides of a shape.
std::vector<int64_t> stridesOf(const std::vector<int64_t>& shape);
const Value& requireFloat(const Value& value, const char* what);

}  // namespace fxc::exec
