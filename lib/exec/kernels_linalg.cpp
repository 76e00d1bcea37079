// Linear-algebra kernels: Det and Einsum.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <utility>

#include "exec/kernels_internal.h"

namespace fxc::exec {
namespace {

// The determinant of each [M, M] matrix of a [..., M, M] input, by LU decomposition with
// partial pivoting in double.
std::vector<Value> determinant(const KernelContext& c) {
  const Value& x = requireFloat(c.input(0), "the input");
  size_t rank = x.shape.size();
  if (rank < 2 || x.shape[rank - 1] != x.shape[rank - 2])
    throw ExecError("Det needs square matrices in the last two axes, not " + shapeText(x.shape));
  int64_t m = x.shape[rank - 1];
  std::vector<int64_t> shape(x.shape.begin(), x.shape.end() - 2);
  int64_t count = checkedNumel(shape);
  Value y = Value::floats(shape, std::vector<float>(static_cast<size_t>(count)));
  std::vector<double> a(static_cast<size_t>(m * m));
  for (int64_t b = 0; b < count; ++b) {
    for (size_t k = 0; k < a.size(); ++k) a[k] = x.f[static_cast<size_t>(b * m * m) + k];
    auto at = [&](int64_t r, int64_t col) -> double& {
      return a[static_cast<size_t>(r * m + col)];
    };
    double det = 1;
    for (int64_t col = 0; col < m && det != 0; ++col) {
      int64_t pivot = col;
      for (int64_t r = col + 1; r < m; ++r) {
        if (std::fabs(at(r, col)) > std::fabs(at(pivot, col))) pivot = r;
      }
      if (at(pivot, col) == 0) {
        det = 0;
        break;
      }
      if (pivot != col) {
        for (int64_t k = 0; k < m; ++k) std::swap(at(pivot, k), at(col, k));
        det = -det;
      }
      det *= at(col, col);
      for (int64_t r = col + 1; r < m; ++r) {
        double factor = at(r, col) / at(col, col);
        for (int64_t k = col; k < m; ++k) at(r, k) -= factor * at(col, k);
      }
    }
    y.f[static_cast<size_t>(b)] = static_cast<float>(det);
  }
  return outputs(std::move(y));
}

// One term of an Einsum equation: its labels in order, "..." as kEllipsis.
constexpr int kEllipsis = -1;
std::vector<int> termLabels(const std::string& term) {
  std::vector<int> labels;
  for (size_t k = 0; k < term.size(); ++k) {
    if (term.compare(k, 3, "...") == 0) {
      if (std::count(labels.begin(), labels.end(), kEllipsis))
        throw ExecError("Einsum term '" + term + "' has two ellipses");
      labels.push_back(kEllipsis);
      k += 2;
    } else if (std::isalpha(static_cast<unsigned char>(term[k]))) {
      labels.push_back(static_cast<unsigned char>(term[k]));
    } else {
      throw ExecError("Einsum term '" + term + "' has '" + term[k] + "'");
    }
  }
  return labels;
}

// Einsum, numpy's semantics: a label repeated within an operand takes its diagonal; labels
// missing from the output are summed over; "..." stands for the leading dimensions, broadcast
// across operands (right-aligned, size 1 stretching). Without "->" the output is "..." then the
// labels used once, in alphabetical (ASCII) order. float32 sums in double; integers wrap to
// their type, as numpy's do.
std::vector<Value> einsum(const KernelContext& c) {
  std::string equation;
  for (char ch : c.stringAttribute("equation", "")) {
    if (!std::isspace(static_cast<unsigned char>(ch))) equation += ch;
  }
  size_t arrow = equation.find("->");
  std::string inputs_text = equation.substr(0, arrow);
  std::vector<std::vector<int>> terms;
  for (size_t from = 0;;) {
    size_t comma = inputs_text.find(',', from);
    terms.push_back(termLabels(inputs_text.substr(from, comma - from)));
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  if (terms.size() != c.inputCount())
    throw ExecError("Einsum equation '" + equation + "' has " + std::to_string(terms.size()) +
                    " operands, the node " + std::to_string(c.inputCount()));
  const Value& first = c.input(0);
  for (size_t k = 0; k < c.inputCount(); ++k) {
    if (c.input(k).dtype != first.dtype) throw ExecError("Einsum's operands differ in type");
    if (c.input(k).dtype == ir::DType::kBool) throw ExecError("unsupported: Einsum of bool");
  }
  // Every dimension gets a label id: letters their character, ellipsis dimension j (of the
  // broadcast ellipsis, counted from the left) 256 + j.
  size_t ellipsis_rank = 0;
  for (size_t k = 0; k < terms.size(); ++k) {
    size_t letters = terms[k].size() - std::count(terms[k].begin(), terms[k].end(), kEllipsis);
    size_t rank = c.input(k).shape.size();
    bool has_ellipsis = letters != terms[k].size();
    if (rank < letters || (!has_ellipsis && rank != letters))
      throw ExecError("Einsum operand " + std::to_string(k) + " of " + shapeText(c.input(k).shape) +
                      " does not fit its term");
    ellipsis_rank = std::max(ellipsis_rank, rank - letters);
  }
  std::map<int, int64_t> sizes;
  std::vector<std::vector<int>> dims_of(terms.size());  // each operand's dimensions' labels
  std::map<int, int> uses;
  for (size_t k = 0; k < terms.size(); ++k) {
    const Value& v = c.input(k);
    size_t own_ellipsis =
        v.shape.size() -
        (terms[k].size() - std::count(terms[k].begin(), terms[k].end(), kEllipsis));
    for (int label : terms[k]) {
      if (label == kEllipsis) {
        for (size_t j = 0; j < own_ellipsis; ++j)
          dims_of[k].push_back(256 + static_cast<int>(ellipsis_rank - own_ellipsis + j));
      } else {
        dims_of[k].push_back(label);
        ++uses[label];
      }
    }
    for (size_t d = 0; d < v.shape.size(); ++d) {
      int label = dims_of[k][d];
      int64_t size = v.shape[d];
      auto [it, fresh] = sizes.emplace(label, size);
      if (fresh || it->second == size) continue;
      if (label >= 256 && (it->second == 1 || size == 1)) {  // ellipsis dimensions broadcast
        it->second = std::max(it->second, size);
        continue;
      }
      throw ExecError(
          "Einsum label '" +
          (label >= 256 ? std::string("...") : std::string(1, static_cast<char>(label))) +
          "' has sizes " + std::to_string(it->second) + " and " + std::to_string(size));
    }
  }
  std::vector<int> output;
  if (arrow == std::string::npos) {
    for (size_t j = 0; j < ellipsis_rank; ++j) output.push_back(256 + static_cast<int>(j));
    for (const auto& [label, count] : uses) {  // std::map: ASCII order
      if (count == 1) output.push_back(label);
    }
  } else {
    bool ellipsis_out = false;
    for (int label : termLabels(equation.substr(arrow + 2))) {
      if (label == kEllipsis) {
        ellipsis_out = true;
        for (size_t j = 0; j < ellipsis_rank; ++j) output.push_back(256 + static_cast<int>(j));
        continue;
      }
      if (!sizes.count(label) || std::count(output.begin(), output.end(), label))
        throw ExecError("Einsum output label '" + std::string(1, static_cast<char>(label)) +
                        "' is not an input label, or repeats");
      output.push_back(label);
    }
    if (!ellipsis_out && ellipsis_rank > 0)
      throw ExecError("Einsum's output drops the dimensions of '...'");
  }
  // The labels iterated: the output's, then the summed ones.
  std::vector<int> labels = output;
  for (const auto& [label, size] : sizes) {
    if (!std::count(labels.begin(), labels.end(), label)) labels.push_back(label);
  }
  std::vector<int64_t> extent(labels.size());
  std::vector<std::vector<int64_t>> strides(terms.size(), std::vector<int64_t>(labels.size(), 0));
  for (size_t l = 0; l < labels.size(); ++l) extent[l] = sizes.at(labels[l]);
  for (size_t k = 0; k < terms.size(); ++k) {
    const Value& v = c.input(k);
    std::vector<int64_t> own = stridesOf(v.shape);
    for (size_t d = 0; d < v.shape.size(); ++d) {
      if (v.shape[d] == 1 && sizes.at(dims_of[k][d]) != 1) continue;  // broadcast: stride 0
      size_t l = static_cast<size_t>(std::find(labels.begin(), labels.end(), dims_of[k][d]) -
                                     labels.begin());
      strides[k][l] += own[d];  // a repeated label walks the diagonal
    }
  }
  std::vector<int64_t> shape(extent.begin(),
                             extent.begin() + static_cast<std::ptrdiff_t>(output.size()));
  int64_t out_count = checkedNumel(shape, first.dtype), summed = 1;
  for (size_t l = output.size(); l < labels.size(); ++l) summed *= extent[l];
  bool floats = first.isFloat() || first.isDouble();
  std::vector<double> float_sums(floats ? static_cast<size_t>(out_count) : 0);
  std::vector<uint64_t> int_sums(floats ? 0 : static_cast<size_t>(out_count));
  std::vector<int64_t> index(labels.size(), 0), offsets(terms.size(), 0);
  for (int64_t o = 0; o < out_count; ++o) {
    for (int64_t s = 0; s < summed; ++s) {
      if (floats) {
        double product = 1;
        for (size_t k = 0; k < terms.size(); ++k)
          product *= c.input(k).at(static_cast<size_t>(offsets[k]));
        float_sums[static_cast<size_t>(o)] += product;
      } else {
        uint64_t product = 1;
        for (size_t k = 0; k < terms.size(); ++k)
          product *= static_cast<uint64_t>(c.input(k).i[static_cast<size_t>(offsets[k])]);
        int_sums[static_cast<size_t>(o)] += product;
      }
      // Next index, the last label fastest (row-major output, summed labels innermost).
      for (size_t l = labels.size(); l-- > 0;) {
        for (size_t k = 0; k < terms.size(); ++k) offsets[k] += strides[k][l];
        if (++index[l] < extent[l]) break;
        for (size_t k = 0; k < terms.size(); ++k) offsets[k] -= strides[k][l] * extent[l];
        index[l] = 0;
      }
    }
  }
  Value y;
  y.dtype = first.dtype;
  y.shape = shape;
  if (first.isDouble()) {
    y.d = std::move(float_sums);
  } else if (floats) {
    y.f.assign(float_sums.begin(), float_sums.end());
  } else {
    for (uint64_t v : int_sums) y.i.push_back(wrapTo(static_cast<int64_t>(v), first.dtype));
  }
  return outputs(std::move(y));
}

}  // namespace

void addLinearAlgebraKernels(KernelTable& t) {
  add(t, {"onnx.Det"}, determinant);
  add(t, {"torch.einsum"}, einsum);
}

}  // namespace fxc::exec
