// The error value that bad input travels in, from the library up to tools/ (which prints it as
// one line and exits 1). "A pattern did not match" is not an error. A broken invariant of fxc
// itself (a bug, never a fault of the model) is an InternalError thrown up to main, which says
// "internal error"; no library catches one and rewords it as a fault of the input.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace fxc {

// The two exceptions of fxc's libraries, both caught where they must be:
// - ModelError: bad input found deep inside a library (a kernel's shapes, an op the tracer cannot
//   follow). The library's API catches it and returns it as an Error with its context (the node;
//   tools/ adds the file and the pass), so that every bad input reaches the user the same way.
// - InternalError: a broken invariant of fxc itself. Never caught by a library, never reworded;
//   main prints "internal error".
class ModelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class InternalError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

struct Error {
  std::string message;
};

template <typename T>
class Expected {
 public:
  Expected(T value) : value_(std::move(value)) {}
  Expected(Error error) : error_(std::move(error.message)) {}
  bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }
  T& value() { return *value_; }
  T&& take() { return std::move(*value_); }
  const std::string& error() const { return error_; }

 private:
  std::optional<T> value_;
  std::string error_;
};

}  // namespace fxc
