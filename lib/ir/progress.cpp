#include "ir/progress.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdio>

namespace fxc {

Progress::Progress(std::string what, std::string unit, size_t total)
    : what_(std::move(what)),
      unit_(std::move(unit)),
      total_(total),
      enabled_(::isatty(STDERR_FILENO) &&
               spdlog::default_logger()->should_log(spdlog::level::info)),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

Progress::~Progress() {
  if (drawn_) std::fputs("\r\033[K", stderr);  // the line erased: what follows starts clean
}

void Progress::update(size_t done) {
  if (!enabled_) return;
  if (total_ > 0 && done > total_) done = total_;
  auto now = std::chrono::steady_clock::now();
  double elapsed = std::chrono::duration<double>(now - start_).count();
  // Quick work draws nothing; then at most five times a second.
  bool last = total_ > 0 && done >= total_;
  if (elapsed < 1.0 || (drawn_ && now - last_ < std::chrono::milliseconds(200) && !last)) return;
  last_ = now;
  char line[256];
  if (total_ > 0 && done > 0) {
    double left = elapsed / static_cast<double>(done) * static_cast<double>(total_ - done);
    std::snprintf(line, sizeof line, "\rfxc: %s: %zu/%zu %s, %.0f s left   ", what_.c_str(), done,
                  total_, unit_.c_str(), left);
  } else {
    std::snprintf(line, sizeof line, "\rfxc: %s: %zu %s, %.0f s   ", what_.c_str(), done,
                  unit_.c_str(), elapsed);
  }
  std::fputs(line, stderr);
  std::fflush(stderr);
  drawn_ = true;
}

}  // namespace fxc
