// Index ops beyond Gather: GatherND, ScatterND and ScatterElements (with their reductions), as
// ONNX defines them, on float and integer data. Indices may be negative (counted from the end);
// out-of-range ones are an error, never a read or write elsewhere.
#include <algorithm>
#include <string>

#include "exec/kernels_internal.h"

namespace fxc::exec {
namespace {

// Copies or combines element `from` of `source` into element `to` of `target` (same dtype).
class ElementWriter {
 public:
  ElementWriter(Value& target, const Value& source, const std::string& reduction)
      : target_(target), source_(source), reduction_(parse(reduction)) {
    if (target.isFloat() != source.isFloat()) throw ExecError("updates and data differ in type");
  }
  void operator()(int64_t to, int64_t from) const {
    size_t t = static_cast<size_t>(to), f = static_cast<size_t>(from);
    if (target_.isFloat()) {
      target_.f[t] = combine(target_.f[t], source_.f[f]);
    } else {
      target_.i[t] = combine(target_.i[t], source_.i[f]);
    }
  }

 private:
  enum class Reduction { kNone, kAdd, kMul, kMax, kMin };
  static Reduction parse(const std::string& name) {
    if (name == "none") return Reduction::kNone;
    if (name == "add") return Reduction::kAdd;
    if (name == "mul") return Reduction::kMul;
    if (name == "max") return Reduction::kMax;
    if (name == "min") return Reduction::kMin;
    throw ExecError("unknown reduction " + name);
  }
  template <typename T>
  T combine(T old, T value) const {
    switch (reduction_) {
      case Reduction::kAdd:
        return old + value;
      case Reduction::kMul:
        return old * value;
      // A NaN on either side is the result, as np.maximum / np.minimum (the spec's reference)
      // and ONNX Runtime give it.
      case Reduction::kMax:
        return nanMax(old, value);
      case Reduction::kMin:
        return nanMin(old, value);
      case Reduction::kNone:
        break;
    }
    return value;
  }
  Value& target_;
  const Value& source_;
  const Reduction reduction_;
};

int64_t checkedIndex(int64_t i, int64_t extent) {
  if (i < -extent || i >= extent)
    throw ExecError("index " + std::to_string(i) + " is out of range for a dimension of " +
                    std::to_string(extent));
  return i < 0 ? i + extent : i;
}

// The flat offset in `data` of the slice that the index tuple at `tuple` (k integers) names,
// within batch `batch` of `batch_dims` leading dimensions.
int64_t sliceOffset(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides,
                    const int64_t* tuple, int64_t k, int64_t batch_dims, int64_t batch) {
  int64_t offset = 0;
  // batch index → leading dimensions
  for (int64_t d = batch_dims - 1, rest = batch; d >= 0; --d) {
    offset += (rest % shape[static_cast<size_t>(d)]) * strides[static_cast<size_t>(d)];
    rest /= shape[static_cast<size_t>(d)];
  }
  for (int64_t j = 0; j < k; ++j) {
    size_t d = static_cast<size_t>(batch_dims + j);
    offset += checkedIndex(tuple[j], shape[d]) * strides[d];
  }
  return offset;
}

std::vector<Value> gatherNd(const KernelContext& c) {
  const Value& data = c.input(0);
  const Value& idx = c.input(1);
  std::vector<int64_t> indices = idx.asInts();
  int64_t batch_dims = c.intAttribute("batch_dims", 0);
  int64_t rank = static_cast<int64_t>(data.shape.size());
  int64_t q = static_cast<int64_t>(idx.shape.size());
  if (q < 1 || batch_dims < 0 || batch_dims >= std::min(rank, q))
    throw ExecError("batch_dims must be below the ranks of data and indices");
  int64_t k = idx.shape.back();
  if (k < 1 || k > rank - batch_dims) throw ExecError("indices' last dimension does not fit data");
  for (int64_t d = 0; d < batch_dims; ++d) {
    if (idx.shape[static_cast<size_t>(d)] != data.shape[static_cast<size_t>(d)])
      throw ExecError("the batch dimensions of data and indices differ");
  }
  std::vector<int64_t> out_shape(idx.shape.begin(), idx.shape.end() - 1);
  out_shape.insert(out_shape.end(), data.shape.begin() + batch_dims + k, data.shape.end());
  int64_t slice = 1;
  for (int64_t d = batch_dims + k; d < rank; ++d) slice *= data.shape[static_cast<size_t>(d)];
  int64_t batch = 1;
  for (int64_t d = 0; d < batch_dims; ++d) batch *= data.shape[static_cast<size_t>(d)];
  int64_t tuples = static_cast<int64_t>(indices.size()) / k;
  int64_t per_batch = tuples / std::max<int64_t>(batch, 1);
  std::vector<int64_t> strides = stridesOf(data.shape);
  Value y;
  y.dtype = data.dtype;
  y.shape = out_shape;
  int64_t n = checkedNumel(y.shape, y.dtype);
  if (data.isFloat())
    y.f.resize(static_cast<size_t>(n));
  else
    y.i.resize(static_cast<size_t>(n));
  for (int64_t t = 0; t < tuples; ++t) {
    int64_t offset = sliceOffset(data.shape, strides, &indices[static_cast<size_t>(t * k)], k,
                                 batch_dims, per_batch ? t / per_batch : 0);
    for (int64_t e = 0; e < slice; ++e) {
      size_t to = static_cast<size_t>(t * slice + e), from = static_cast<size_t>(offset + e);
      if (data.isFloat())
        y.f[to] = data.f[from];
      else
        y.i[to] = data.i[from];
    }
  }
  return outputs(std::move(y));
}

std::vector<Value> scatterNd(const KernelContext& c) {
  const Value& data = c.input(0);
  const Value& idx = c.input(1);
  const Value& updates = c.input(2);
  std::vector<int64_t> indices = idx.asInts();
  int64_t rank = static_cast<int64_t>(data.shape.size());
  if (idx.shape.empty()) throw ExecError("indices must have rank >= 1");
  int64_t k = idx.shape.back();
  if (k < 1 || k > rank) throw ExecError("indices' last dimension does not fit data");
  std::vector<int64_t> want(idx.shape.begin(), idx.shape.end() - 1);
  want.insert(want.end(), data.shape.begin() + k, data.shape.end());
  if (updates.shape != want)
    throw ExecError("updates " + shapeText(updates.shape) + " is not " + shapeText(want));
  int64_t slice = 1;
  for (int64_t d = k; d < rank; ++d) slice *= data.shape[static_cast<size_t>(d)];
  std::string reduction = c.stringAttribute("reduction", "none");
  Value y = data;
  ElementWriter write(y, updates, reduction);
  std::vector<int64_t> strides = stridesOf(data.shape);
  int64_t tuples = static_cast<int64_t>(indices.size()) / k;
  for (int64_t t = 0; t < tuples; ++t) {
    int64_t offset =
        sliceOffset(data.shape, strides, &indices[static_cast<size_t>(t * k)], k, 0, 0);
    for (int64_t e = 0; e < slice; ++e) write(offset + e, t * slice + e);
  }
  return outputs(std::move(y));
}

std::vector<Value> scatterElements(const KernelContext& c) {
  const Value& data = c.input(0);
  const Value& idx = c.input(1);
  const Value& updates = c.input(2);
  if (idx.shape != updates.shape) throw ExecError("indices and updates differ in shape");
  if (idx.shape.size() != data.shape.size()) throw ExecError("indices and data differ in rank");
  size_t axis = normalizeAxis(c.intAttribute("axis", 0), data.shape.size());
  std::vector<int64_t> indices = idx.asInts(), strides = stridesOf(data.shape),
                       idx_strides = stridesOf(idx.shape);
  Value y = data;
  ElementWriter write(y, updates, c.stringAttribute("reduction", "none"));
  for (int64_t e = 0; e < static_cast<int64_t>(indices.size()); ++e) {
    int64_t to = 0;
    for (size_t d = 0; d < data.shape.size(); ++d) {
      int64_t i = (e / idx_strides[d]) % idx.shape[d];
      if (i >= data.shape[d] && d != axis) throw ExecError("indices exceed data's shape");
      if (d == axis) i = checkedIndex(indices[static_cast<size_t>(e)], data.shape[d]);
      to += i * strides[d];
    }
    write(to, e);
  }
  return outputs(std::move(y));
}

}  // namespace

void addScatterKernels(KernelTable& table) {
  add(table, {"onnx.GatherND"}, gatherNd);
  add(table, {"onnx.ScatterND"}, scatterNd);
  add(table, {"onnx.ScatterElements", "onnx.Scatter"}, scatterElements);
}

}  // namespace fxc::exec
