// The error value that bad input travels in, from the library up to tools/ (which prints it as
// one line and exits 1). "A pattern did not match" is not an error; a broken invariant is an
// assertion, not one of these.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace fxc {

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
