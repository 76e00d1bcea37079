// The recurrent ops: LSTM, GRU and RNN, as ONNX defines them (opset 7–14 semantics, `layout` of
// opset 14): forward, reverse and bidirectional, per-batch `sequence_lens`, initial states,
// peepholes, `clip`, GRU's `linear_before_reset`, and the activations ONNX lists, with their
// default α/β (explicit activation_alpha/beta are refused rather than guessed).
//
//   LSTM (gates i, o, f, c):  i = f(x·Wiᵀ + h·Riᵀ + Pi⊙c + bi)   f = f(x·Wfᵀ + h·Rfᵀ + Pf⊙c + bf)
//                             ĉ = g(x·Wcᵀ + h·Rcᵀ + bc)           c' = f⊙c + i⊙ĉ
//                             o = f(x·Woᵀ + h·Roᵀ + Po⊙c' + bo)  h' = o⊙h(c')
//   GRU  (gates z, r, h):     z = f(x·Wzᵀ + h·Rzᵀ + bz)   r = f(x·Wrᵀ + h·Rrᵀ + br)
//                             ĥ = g(x·Whᵀ + (r⊙h)·Rhᵀ + Rbh + Wbh), or with linear_before_reset
//                                 g(x·Whᵀ + r⊙(h·Rhᵀ + Rbh) + Wbh);   h' = (1 − z)⊙ĥ + z⊙h
//   RNN:                      h' = f(x·Wᵀ + h·Rᵀ + Wb + Rb)
// Steps at or past a batch entry's sequence length are not computed: Y is 0 there and Y_h/Y_c
// keep the last state computed.
#include <cmath>
#include <functional>
#include <string>

#include "exec/kernels_internal.h"

namespace fxc::exec {
namespace {

enum class Cell { kLstm, kGru, kRnn };

using Activation = std::function<float(float)>;

Activation activation(const std::string& name) {
  if (name == "Sigmoid") return [](float v) { return 1.0f / (1.0f + std::exp(-v)); };
  if (name == "Tanh") return [](float v) { return std::tanh(v); };
  if (name == "Relu") return [](float v) { return v > 0 ? v : 0.0f; };
  if (name == "HardSigmoid")
    return [](float v) { return std::max(0.0f, std::min(1.0f, 0.2f * v + 0.5f)); };
  if (name == "LeakyRelu") return [](float v) { return v >= 0 ? v : 0.01f * v; };
  if (name == "ThresholdedRelu") return [](float v) { return v > 1.0f ? v : 0.0f; };
  if (name == "Elu") return [](float v) { return v >= 0 ? v : std::exp(v) - 1.0f; };
  if (name == "Softsign") return [](float v) { return v / (1.0f + std::fabs(v)); };
  if (name == "Softplus") return [](float v) { return softplus(v); };
  throw ExecError("unsupported: activation " + name);
}

// The input at ONNX position `index`: a call_function has them all in order (None where
// omitted); a module holds the constant ones as tensors and takes X and sequence_lens as args.
struct RnnInputs {
  const Value *x = nullptr, *w = nullptr, *r = nullptr, *b = nullptr, *lens = nullptr,
              *h0 = nullptr, *c0 = nullptr, *p = nullptr;
};

RnnInputs rnnInputs(const KernelContext& c) {
  RnnInputs in;
  if (c.tensor("weight_ih")) {
    in.x = &c.input(0);
    in.lens = c.optionalInput(1);
    in.w = c.tensor("weight_ih");
    in.r = c.tensor("weight_hh");
    in.b = c.tensor("bias");
    in.h0 = c.tensor("initial_h");
    in.c0 = c.tensor("initial_c");
    in.p = c.tensor("peepholes");
  } else {
    const Value** slots[] = {&in.x, &in.w, &in.r, &in.b, &in.lens, &in.h0, &in.c0, &in.p};
    for (size_t k = 0; k < 8; ++k) *slots[k] = c.optionalInput(k);
  }
  if (!in.x || !in.w || !in.r) throw ExecError("X, W and R are required");
  return in;
}

Kernel recurrent(Cell cell) {
  return [cell](const KernelContext& c) -> std::vector<Value> {
    RnnInputs in = rnnInputs(c);
    const Value& x = requireFloat(*in.x, "X");
    const Value& w = requireFloat(*in.w, "W");
    const Value& r = requireFloat(*in.r, "R");
    // The optional float inputs too: an int64 B has no floats to read.
    for (auto [value, name] : {std::pair{in.b, "B"}, std::pair{in.h0, "initial_h"},
                               std::pair{in.c0, "initial_c"}, std::pair{in.p, "P"}}) {
      if (value) requireFloat(*value, name);
    }
    const int64_t gates = cell == Cell::kLstm ? 4 : cell == Cell::kGru ? 3 : 1;
    std::string direction = c.stringAttribute("direction", "forward");
    if (direction != "forward" && direction != "reverse" && direction != "bidirectional")
      throw ExecError("unknown direction " + direction);
    const int64_t directions = direction == "bidirectional" ? 2 : 1;
    const int64_t layout = c.intAttribute("layout", 0);
    if (layout != 0 && layout != 1) throw ExecError("layout must be 0 or 1");
    if (c.attribute("activation_alpha") || c.attribute("activation_beta"))
      throw ExecError("unsupported: activation_alpha/activation_beta");
    if (cell == Cell::kLstm && c.intAttribute("input_forget", 0) != 0)
      throw ExecError("unsupported: input_forget");
    const bool linear_before_reset = c.intAttribute("linear_before_reset", 0) != 0;
    const float clip = c.floatAttribute("clip", 0.0f);
    if (x.shape.size() != 3) throw ExecError("X must be 3-D");
    const int64_t seq = layout == 0 ? x.shape[0] : x.shape[1];
    const int64_t batch = layout == 0 ? x.shape[1] : x.shape[0];
    const int64_t input = x.shape[2];
    if (w.shape.size() != 3 || w.shape[0] != directions || w.shape[1] % gates != 0 ||
        w.shape[2] != input)
      throw ExecError("W " + shapeText(w.shape) + " does not fit X " + shapeText(x.shape) +
                      " and " + std::to_string(directions) + " direction(s)");
    const int64_t hidden = w.shape[1] / gates;
    if (c.attribute("hidden_size") && c.intAttribute("hidden_size", hidden) != hidden)
      throw ExecError("hidden_size does not match W");
    if (r.shape != std::vector<int64_t>{directions, gates * hidden, hidden})
      throw ExecError("R " + shapeText(r.shape) + " does not fit W " + shapeText(w.shape));
    if (in.b && in.b->shape != std::vector<int64_t>{directions, 2 * gates * hidden})
      throw ExecError("B " + shapeText(in.b->shape) + " does not fit W");
    std::vector<int64_t> state_shape = layout == 0
                                           ? std::vector<int64_t>{directions, batch, hidden}
                                           : std::vector<int64_t>{batch, directions, hidden};
    for (const Value* state : {in.h0, in.c0}) {
      if (state && state->shape != state_shape)
        throw ExecError("an initial state " + shapeText(state->shape) + " is not " +
                        shapeText(state_shape));
    }
    if (in.p && in.p->shape != std::vector<int64_t>{directions, 3 * hidden})
      throw ExecError("P " + shapeText(in.p->shape) + " does not fit W");
    std::vector<int64_t> lengths(static_cast<size_t>(batch), seq);
    if (in.lens) {
      if (in.lens->isFloat() || in.lens->numel() != batch)
        throw ExecError("sequence_lens must hold one integer per batch entry");
      for (int64_t b = 0; b < batch; ++b) {
        lengths[static_cast<size_t>(b)] = in.lens->i[static_cast<size_t>(b)];
        if (lengths[static_cast<size_t>(b)] < 0 || lengths[static_cast<size_t>(b)] > seq)
          throw ExecError("a sequence length is outside [0, " + std::to_string(seq) + "]");
      }
    }
    // Activations: f, g[, h] per direction.
    std::vector<std::string> names;
    if (const ir::Argument* given = c.attribute("activations")) {
      if (!given->isSequence()) throw ExecError("attribute activations is not a list");
      for (const auto& item : given->items()) {
        if (item.kind() != ir::Argument::Kind::kString)
          throw ExecError("attribute activations lists a value that is not a string");
        names.push_back(item.toString());
      }
    }
    const size_t per_direction = cell == Cell::kLstm ? 3 : cell == Cell::kGru ? 2 : 1;
    if (names.empty()) {
      for (int64_t d = 0; d < directions; ++d) {
        if (cell == Cell::kLstm) names.insert(names.end(), {"Sigmoid", "Tanh", "Tanh"});
        if (cell == Cell::kGru) names.insert(names.end(), {"Sigmoid", "Tanh"});
        if (cell == Cell::kRnn) names.push_back("Tanh");
      }
    }
    if (names.size() != per_direction * static_cast<size_t>(directions))
      throw ExecError("activations: expected " +
                      std::to_string(per_direction * static_cast<size_t>(directions)) +
                      " names, got " + std::to_string(names.size()));
    std::vector<Activation> functions;
    for (const auto& name : names) functions.push_back(activation(name));
    auto clipped = [clip](float v) { return clip > 0 ? std::max(-clip, std::min(clip, v)) : v; };

    std::vector<int64_t> y_shape = layout == 0
                                       ? std::vector<int64_t>{seq, directions, batch, hidden}
                                       : std::vector<int64_t>{batch, seq, directions, hidden};
    Value y =
        Value::floats(y_shape, std::vector<float>(static_cast<size_t>(checkedNumel(y_shape))));
    Value y_h = Value::floats(state_shape,
                              std::vector<float>(static_cast<size_t>(directions * batch * hidden)));
    Value y_c = y_h;
    auto x_at = [&](int64_t t, int64_t b) {
      return &x.f[static_cast<size_t>(layout == 0 ? (t * batch + b) * input
                                                  : (b * seq + t) * input)];
    };
    auto y_at = [&](int64_t t, int64_t d, int64_t b) {
      return &y.f[static_cast<size_t>(layout == 0 ? ((t * directions + d) * batch + b) * hidden
                                                  : ((b * seq + t) * directions + d) * hidden)];
    };
    auto state_at = [&](int64_t d, int64_t b) {
      return static_cast<size_t>(layout == 0 ? (d * batch + b) * hidden
                                             : (b * directions + d) * hidden);
    };
    const int64_t rows = gates * hidden;
    std::vector<float> xw(static_cast<size_t>(rows)), hr(static_cast<size_t>(rows));
    std::vector<float> h(static_cast<size_t>(hidden)), cs(static_cast<size_t>(hidden)),
        next(static_cast<size_t>(hidden));
    for (int64_t d = 0; d < directions; ++d) {
      bool reverse = direction == "reverse" || d == 1;
      const float* wd = w.f.data() + (d * rows * input);
      const float* rd = r.f.data() + (d * rows * hidden);
      const float* wb = in.b ? &in.b->f[static_cast<size_t>(d * 2 * rows)] : nullptr;
      const float* rb = in.b ? wb + rows : nullptr;
      const float* pd = in.p ? &in.p->f[static_cast<size_t>(d * 3 * hidden)] : nullptr;
      const Activation& f = functions[static_cast<size_t>(d) * per_direction];
      const Activation& g =
          functions[std::min(functions.size() - 1, static_cast<size_t>(d) * per_direction + 1)];
      const Activation& hh =
          functions[std::min(functions.size() - 1, static_cast<size_t>(d) * per_direction + 2)];
      for (int64_t b = 0; b < batch; ++b) {
        size_t at = state_at(d, b);
        for (int64_t k = 0; k < hidden; ++k) {
          h[static_cast<size_t>(k)] = in.h0 ? in.h0->f[at + static_cast<size_t>(k)] : 0.0f;
          cs[static_cast<size_t>(k)] = in.c0 ? in.c0->f[at + static_cast<size_t>(k)] : 0.0f;
        }
        int64_t length = lengths[static_cast<size_t>(b)];
        for (int64_t step = 0; step < length; ++step) {
          int64_t t = reverse ? length - 1 - step : step;
          const float* xt = x_at(t, b);
          for (int64_t row = 0; row < rows; ++row) {
            double a = wb ? wb[row] : 0.0, bh = rb ? rb[row] : 0.0;
            for (int64_t k = 0; k < input; ++k) a += wd[row * input + k] * xt[k];
            for (int64_t k = 0; k < hidden; ++k)
              bh += rd[row * hidden + k] * h[static_cast<size_t>(k)];
            xw[static_cast<size_t>(row)] = static_cast<float>(a);
            hr[static_cast<size_t>(row)] = static_cast<float>(bh);
          }
          const size_t n = static_cast<size_t>(hidden);
          if (cell == Cell::kLstm) {  // W rows: i, o, f, c
            for (size_t j = 0; j < n; ++j) {
              float c_prev = cs[j];
              float i = f(clipped(xw[j] + hr[j] + (pd ? pd[j] * c_prev : 0.0f)));
              float forget =
                  f(clipped(xw[2 * n + j] + hr[2 * n + j] + (pd ? pd[2 * n + j] * c_prev : 0.0f)));
              float candidate = g(clipped(xw[3 * n + j] + hr[3 * n + j]));
              float c_new = forget * c_prev + i * candidate;
              float o = f(clipped(xw[n + j] + hr[n + j] + (pd ? pd[n + j] * c_new : 0.0f)));
              cs[j] = c_new;
              next[j] = o * hh(c_new);
            }
          } else if (cell == Cell::kGru) {  // W rows: z, r, h
            std::vector<float> z(n), reset(n);
            for (size_t j = 0; j < n; ++j) {
              z[j] = f(clipped(xw[j] + hr[j]));
              reset[j] = f(clipped(xw[n + j] + hr[n + j]));
            }
            for (size_t j = 0; j < n; ++j) {
              float candidate_in;
              if (linear_before_reset) {
                candidate_in = xw[2 * n + j] + reset[j] * hr[2 * n + j];
              } else {  // (r ⊙ h)·Rhᵀ + Rbh
                double a = rb ? rb[2 * n + j] : 0.0;
                const float* rh = rd + (2 * n + j) * n;
                for (size_t m = 0; m < n; ++m) a += rh[m] * reset[m] * h[m];
                candidate_in = xw[2 * n + j] + static_cast<float>(a);
              }
              next[j] = (1.0f - z[j]) * g(clipped(candidate_in)) + z[j] * h[j];
            }
          } else {
            for (size_t j = 0; j < n; ++j) next[j] = f(clipped(xw[j] + hr[j]));
          }
          h = next;
          float* out = y_at(t, d, b);
          for (int64_t k = 0; k < hidden; ++k) out[k] = h[static_cast<size_t>(k)];
        }
        for (int64_t k = 0; k < hidden; ++k) {
          y_h.f[at + static_cast<size_t>(k)] = h[static_cast<size_t>(k)];
          y_c.f[at + static_cast<size_t>(k)] = cs[static_cast<size_t>(k)];
        }
      }
    }
    std::vector<Value> outputs = {std::move(y), std::move(y_h)};
    if (cell == Cell::kLstm) outputs.push_back(std::move(y_c));
    return outputs;
  };
}

}  // namespace

void addRecurrentKernels(KernelTable& table) {
  add(table, {"onnx.LSTM", "module:LSTM"}, recurrent(Cell::kLstm));
  add(table, {"onnx.GRU", "module:GRU"}, recurrent(Cell::kGru));
  add(table, {"onnx.RNN", "module:RNN"}, recurrent(Cell::kRnn));
}

}  // namespace fxc::exec
