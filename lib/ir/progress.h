// A progress line for work that takes seconds (calibration, benchmark runs): on a terminal, one
// line on stderr rewritten in place (at most five times a second) with the count and the time
// left, erased when the work ends; nothing at all when stderr is not a terminal, when the log
// level hides information (-q), or for work done within a second.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace fxc {

class Progress {
 public:
  // `what`: "calibrating (minmax)"; `unit`: "samples". total 0: the count alone, no time left.
  Progress(std::string what, std::string unit, size_t total);
  ~Progress();  // erases a drawn line, so that the next message starts on a clean one
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  // `done` of the total are finished.
  void update(size_t done);

 private:
  std::string what_, unit_;
  size_t total_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace fxc
