// Signal-processing kernels: the window functions HannWindow, HammingWindow, BlackmanWindow;
// DFT and STFT (direct sums in double, no FFT: exact enough, O(n²) per line); MelWeightMatrix.
#include <algorithm>
#include <cmath>
#include <complex>

#include "exec/kernels_internal.h"

namespace fxc::exec {
namespace {

// A generalized cosine window of `size` points: Σ_k (−1)^k a_k cos(2πkn/N), with N = size
// (periodic, the default) or size − 1 (symmetric). Computed in double, returned as float32.
Kernel cosineWindow(std::vector<double> coefficients, const char* op) {
  return [coefficients, op](const KernelContext& c) {
    const Value& size_value = c.input(0);
    if (size_value.isFloat() || size_value.numel() != 1)
      throw ExecError(std::string(op) + "'s size must be one integer");
    if (c.intAttribute("output_datatype", 1) != static_cast<int64_t>(ir::DType::kFloat32))
      throw ExecError(
          "unsupported: " + std::string(op) + " of type " +
          std::string(ir::dtypeName(static_cast<ir::DType>(c.intAttribute("output_datatype", 1)))));
    int64_t size = size_value.i[0];
    bool periodic = c.intAttribute("periodic", 1) != 0;
    int64_t period = periodic ? size : size - 1;
    if (size > 0 && period == 0)
      throw ExecError("unsupported: a symmetric " + std::string(op) + " of one point");
    Value y = Value::floats({size}, std::vector<float>(static_cast<size_t>(checkedNumel({size}))));
    const double pi = std::acos(-1.0);
    for (int64_t n = 0; n < size; ++n) {
      double value = 0, sign = 1;
      for (size_t k = 0; k < coefficients.size(); ++k, sign = -sign)
        value += sign * coefficients[k] *
                 std::cos(2 * pi * static_cast<double>(k) * static_cast<double>(n) /
                          static_cast<double>(period));
      y.f[static_cast<size_t>(n)] = static_cast<float>(value);
    }
    return outputs(std::move(y));
  };
}

// The discrete Fourier transform of one line of `count` complex points (imaginary parts 0 for a
// real signal), zero-padded or cut to `length`: bins [0, bins) of Σ s[n]·e^(∓2πikn/length),
// divided by length when inverse.
void transformLine(const std::vector<std::complex<double>>& line, int64_t length, int64_t bins,
                   bool inverse, std::vector<std::complex<double>>& out) {
  const double pi = std::acos(-1.0);
  out.assign(static_cast<size_t>(bins), 0.0);
  int64_t used = std::min<int64_t>(length, static_cast<int64_t>(line.size()));
  for (int64_t k = 0; k < bins; ++k) {
    std::complex<double> sum = 0.0;
    for (int64_t n = 0; n < used; ++n) {
      // (k·n) mod length keeps the angle small, and exact for the bins that repeat.
      double angle = 2 * pi * static_cast<double>((k * n) % length) / static_cast<double>(length);
      sum += line[static_cast<size_t>(n)] *
             std::complex<double>(std::cos(angle), inverse ? std::sin(angle) : -std::sin(angle));
    }
    out[static_cast<size_t>(k)] = inverse ? sum / static_cast<double>(length) : sum;
  }
}

// DFT (opset 17; opset 20's axis input too): along `axis` of [batch, ..., 1 or 2] (a real or a
// complex signal), to [..., 2]; dft_length pads with zeros or cuts; onesided keeps the first
// ⌊n/2⌋ + 1 bins.
std::vector<Value> dft(const KernelContext& c) {
  const Value& x = requireFloat(c.input(0), "the signal");
  size_t rank = x.shape.size();
  if (rank < 3 || (x.shape.back() != 1 && x.shape.back() != 2))
    throw ExecError("DFT's input " + shapeText(x.shape) + " is not [batch, ..., 1 or 2]");
  int64_t axis = c.opset() >= 20 ? -2 : c.intAttribute("axis", 1);
  if (const Value* given = c.optionalInput(2)) axis = given->asInts().at(0);
  if (axis < 0) axis += static_cast<int64_t>(rank);
  if (axis < 1 || axis > static_cast<int64_t>(rank) - 2)
    throw ExecError("DFT axis " + std::to_string(axis) + " is not a signal axis of " +
                    shapeText(x.shape));
  size_t a = static_cast<size_t>(axis);
  bool inverse = c.intAttribute("inverse", 0) != 0, onesided = c.intAttribute("onesided", 0) != 0;
  if (inverse && onesided) throw ExecError("unsupported: an inverse onesided DFT");
  int64_t length = x.shape[a];
  if (const Value* given = c.optionalInput(1); given && given->numel() > 0)
    length = given->asInts().at(0);
  if (length <= 0) throw ExecError("dft_length must be positive");
  int64_t bins = onesided ? length / 2 + 1 : length;
  std::vector<int64_t> shape = x.shape;
  shape[a] = bins;
  shape.back() = 2;
  Value y = Value::floats(shape, std::vector<float>(static_cast<size_t>(checkedNumel(shape))));
  int64_t parts = x.shape.back(), extent = x.shape[a], outer = 1, inner = 1;
  for (size_t d = 0; d < a; ++d) outer *= x.shape[d];
  for (size_t d = a + 1; d + 1 < rank; ++d) inner *= x.shape[d];
  std::vector<std::complex<double>> line(static_cast<size_t>(extent)), out;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t r = 0; r < inner; ++r) {
      for (int64_t n = 0; n < extent; ++n) {
        const float* point = x.f.data() + (((o * extent + n) * inner + r) * parts);
        line[static_cast<size_t>(n)] = {point[0], parts == 2 ? point[1] : 0.0f};
      }
      transformLine(line, length, bins, inverse, out);
      for (int64_t k = 0; k < bins; ++k) {
        float* point = y.f.data() + (((o * bins + k) * inner + r) * 2);
        point[0] = static_cast<float>(out[static_cast<size_t>(k)].real());
        point[1] = static_cast<float>(out[static_cast<size_t>(k)].imag());
      }
    }
  }
  return outputs(std::move(y));
}

// STFT: frames of frame_length points every frame_step along [batch, length, 1 or 2], each
// multiplied by the window (when given) and transformed: [batch, frames, bins, 2], bins
// ⌊frame_length/2⌋ + 1 when onesided (the default).
std::vector<Value> stft(const KernelContext& c) {
  const Value& x = requireFloat(c.input(0), "the signal");
  if (x.shape.size() != 3 || (x.shape[2] != 1 && x.shape[2] != 2))
    throw ExecError("STFT's signal " + shapeText(x.shape) + " is not [batch, length, 1 or 2]");
  int64_t step = c.input(1).asInts().at(0);
  const Value* window = c.optionalInput(2);
  if (window && window->numel() == 0) window = nullptr;
  if (window) requireFloat(*window, "the window");
  const Value* length_value = c.optionalInput(3);
  int64_t frame_length = length_value && length_value->numel() > 0 ? length_value->asInts().at(0)
                         : window                                  ? window->numel()
                                                                   : 0;
  if (frame_length <= 0 || step <= 0)
    throw ExecError("STFT needs a positive frame length and step");
  if (window && window->numel() != frame_length)
    throw ExecError("the window has " + std::to_string(window->numel()) + " points, frames " +
                    std::to_string(frame_length));
  bool onesided = c.intAttribute("onesided", 1) != 0;
  int64_t batch = x.shape[0], signal = x.shape[1], parts = x.shape[2];
  if (signal < frame_length) throw ExecError("the signal is shorter than one frame");
  int64_t frames = (signal - frame_length) / step + 1;
  int64_t bins = onesided ? frame_length / 2 + 1 : frame_length;
  std::vector<int64_t> shape = {batch, frames, bins, 2};
  Value y = Value::floats(shape, std::vector<float>(static_cast<size_t>(checkedNumel(shape))));
  std::vector<std::complex<double>> line(static_cast<size_t>(frame_length)), out;
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t f = 0; f < frames; ++f) {
      for (int64_t n = 0; n < frame_length; ++n) {
        const float* point = x.f.data() + ((b * signal + f * step + n) * parts);
        double weight = window ? window->f[static_cast<size_t>(n)] : 1.0;
        line[static_cast<size_t>(n)] = {point[0] * weight, parts == 2 ? point[1] * weight : 0.0};
      }
      transformLine(line, frame_length, bins, false, out);
      for (int64_t k = 0; k < bins; ++k) {
        float* point = y.f.data() + (((b * frames + f) * bins + k) * 2);
        point[0] = static_cast<float>(out[static_cast<size_t>(k)].real());
        point[1] = static_cast<float>(out[static_cast<size_t>(k)].imag());
      }
    }
  }
  return outputs(std::move(y));
}

// MelWeightMatrix: [dft_length/2 + 1, num_mel_bins] triangular filters, as ONNX's reference
// computes them (in double): num_mel_bins + 2 points evenly spaced in mel (2595·log10(1 + f/700))
// from lower_edge_hertz, the step (high − low) / (num_mel_bins + 2), each mapped back to a
// spectrogram bin ⌊(dft_length + 1)·f / sample_rate⌋; filter i rises from point i to point i + 1
// and falls to point i + 2.
std::vector<Value> melWeightMatrix(const KernelContext& c) {
  if (c.intAttribute("output_datatype", 1) != static_cast<int64_t>(ir::DType::kFloat32))
    throw ExecError("unsupported: MelWeightMatrix of another type than float32");
  auto scalar = [&](size_t k) {
    const Value& v = c.input(k);
    if (v.numel() != 1)
      throw ExecError("MelWeightMatrix's input " + std::to_string(k) + " is not a scalar");
    return v.isFloat() ? static_cast<double>(v.f[0]) : static_cast<double>(v.i[0]);
  };
  int64_t mel_bins = static_cast<int64_t>(scalar(0)), dft_length = static_cast<int64_t>(scalar(1));
  double sample_rate = scalar(2), low_hz = scalar(3), high_hz = scalar(4);
  if (mel_bins <= 0 || dft_length <= 0 || !(sample_rate > 0))
    throw ExecError("MelWeightMatrix needs positive bins, dft_length and sample_rate");
  int64_t spectrogram_bins = dft_length / 2 + 1;
  auto mel = [](double hz) { return 2595 * std::log10(1 + hz / 700); };
  double low = mel(low_hz), step = (mel(high_hz) - low) / static_cast<double>(mel_bins + 2);
  std::vector<int64_t> points;
  for (int64_t k = 0; k < mel_bins + 2; ++k) {
    double hz = 700 * (std::pow(10.0, (static_cast<double>(k) * step + low) / 2595) - 1);
    double bin = std::floor(static_cast<double>(dft_length + 1) * hz / sample_rate);
    if (!(bin >= 0 && bin < static_cast<double>(spectrogram_bins)))
      throw ExecError("MelWeightMatrix's frequency " + std::to_string(hz) +
                      " Hz lies outside the spectrogram");
    points.push_back(static_cast<int64_t>(bin));
  }
  std::vector<int64_t> shape = {spectrogram_bins, mel_bins};
  Value y = Value::floats(shape, std::vector<float>(static_cast<size_t>(checkedNumel(shape))));
  auto at = [&](int64_t bin, int64_t filter) -> float& {
    return y.f[static_cast<size_t>(bin * mel_bins + filter)];
  };
  for (int64_t i = 0; i < mel_bins; ++i) {
    int64_t left = points[static_cast<size_t>(i)], centre = points[static_cast<size_t>(i + 1)],
            right = points[static_cast<size_t>(i + 2)];
    if (centre == left) {
      at(centre, i) = 1;
    } else {
      for (int64_t j = left; j <= centre; ++j)
        at(j, i) =
            static_cast<float>(static_cast<double>(j - left) / static_cast<double>(centre - left));
    }
    for (int64_t j = centre; j < right; ++j)
      at(j, i) =
          static_cast<float>(static_cast<double>(right - j) / static_cast<double>(right - centre));
  }
  return outputs(std::move(y));
}

}  // namespace

void addSignalKernels(KernelTable& t) {
  add(t, {"onnx.HannWindow"}, cosineWindow({0.5, 0.5}, "HannWindow"));
  add(t, {"onnx.HammingWindow"}, cosineWindow({25.0 / 46, 21.0 / 46}, "HammingWindow"));
  add(t, {"onnx.BlackmanWindow"}, cosineWindow({0.42, 0.5, 0.08}, "BlackmanWindow"));
  add(t, {"onnx.DFT"}, dft);
  add(t, {"onnx.STFT"}, stft);
  add(t, {"onnx.MelWeightMatrix"}, melWeightMatrix);
}

}  // namespace fxc::exec
