#include "ir/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>

namespace fxc {
namespace {

// The temporary files not yet renamed into place, for a signal handler to remove: each slot holds
// the c_str() of an OutputFile's temp_, cleared before that string changes or dies.
constexpr size_t kSlots = 4096;
std::atomic<const char*> g_unfinished[kSlots];

// A free slot for `path`, or kSlots when every one is taken.
size_t noteUnfinished(const char* path) {
  for (size_t k = 0; k < kSlots; ++k) {
    const char* expected = nullptr;
    if (g_unfinished[k].compare_exchange_strong(expected, path)) return k;
  }
  return kSlots;
}

std::string directoryOf(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

mode_t newFileMode() {
  mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

}  // namespace

void removeUnfinishedOutputs() {
  for (auto& slot : g_unfinished) {
    const char* path = slot.exchange(nullptr);
    if (path) ::unlink(path);
  }
}

Expected<std::string> resolveOutputPath(const std::string& path) {
  std::string target = path;
  for (int depth = 0; depth < 40; ++depth) {
    struct stat info {};
    if (::lstat(target.c_str(), &info) != 0 || !S_ISLNK(info.st_mode)) return target;
    std::string link(static_cast<size_t>(info.st_size > 0 ? info.st_size : 4096) + 1, '\0');
    ssize_t n = ::readlink(target.c_str(), link.data(), link.size());
    if (n < 0) return Error{"cannot read the link " + target + ": " + std::strerror(errno)};
    link.resize(static_cast<size_t>(n));
    target = link.front() == '/' ? link : directoryOf(target) + link;
  }
  return Error{"too many levels of symbolic links"};
}

OutputFile::OutputFile(const std::string& path) : path_(path) {
  if (path_ == "-") {
    fd_ = STDOUT_FILENO;
    return;
  }
  auto target = resolveOutputPath(path_);
  if (!target) {
    error_ = target.error();
    return;
  }
  target_ = target.take();
  struct stat info {};
  bool exists = ::stat(target_.c_str(), &info) == 0;
  if (exists && S_ISDIR(info.st_mode)) {
    error_ = "is a directory";
  } else if (exists && S_ISSOCK(info.st_mode)) {
    error_ = "is a socket, not a file, device or pipe";
  } else if (exists && !S_ISREG(info.st_mode)) {
    // A device or a FIFO: written in place. Renaming a file over it would destroy the node.
    fd_ = ::open(target_.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) error_ = std::strerror(errno);
  } else {
    temp_ = target_ + ".tmp.XXXXXX";
    fd_ = ::mkstemp(temp_.data());
    if (fd_ < 0) {
      error_ = std::strerror(errno);
      temp_.clear();
      return;
    }
    slot_ = noteUnfinished(temp_.c_str());
    if (slot_ == kSlots) error_ = "more than 4096 files are being written at once";
    ::fchmod(fd_, exists ? info.st_mode & 07777 : newFileMode());
  }
}

OutputFile::~OutputFile() {
  if (fd_ >= 0 && fd_ != STDOUT_FILENO) ::close(fd_);
  if (slot_ < kSlots) g_unfinished[slot_] = nullptr;
  if (!temp_.empty() && !committed_) ::unlink(temp_.c_str());
}

void OutputFile::write(const void* data, size_t size) {
  const char* p = static_cast<const char*>(data);
  while (error_.empty() && size > 0) {
    ssize_t n = ::write(fd_, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      // EFAULT: the bytes came from a mapped input file that another process truncated.
      error_ = n == 0             ? "nothing written"
               : errno == EFAULT ? "an input file shrank while fxc was reading it"
                                 : std::strerror(errno);
      return;
    }
    p += n;
    size -= static_cast<size_t>(n);
  }
}

Expected<bool> OutputFile::finish() {
  if (error_.empty() && fd_ >= 0 && fd_ != STDOUT_FILENO) {
    if (::close(fd_) != 0) error_ = std::strerror(errno);
    fd_ = -1;
  }
  if (!error_.empty())
    return Error{"cannot write " + (path_ == "-" ? std::string("to stdout") : path_) + ": " +
                 error_};
  return true;
}

Expected<bool> OutputFile::commit() {
  auto finished = finish();
  if (!finished) return finished;
  if (!committed_ && fd_ != STDOUT_FILENO) {
    if (!temp_.empty() && ::rename(temp_.c_str(), target_.c_str()) != 0)
      error_ = std::strerror(errno);
    committed_ = error_.empty();
    if (committed_ && slot_ < kSlots) g_unfinished[slot_] = nullptr;
  }
  if (!error_.empty())
    return Error{"cannot write " + (path_ == "-" ? std::string("to stdout") : path_) + ": " +
                 error_};
  return true;
}

Expected<bool> OutputSet::add(const std::string& path, const std::string& bytes) {
  auto file = std::make_unique<OutputFile>(path);
  file->write(bytes);
  auto finished = file->finish();
  if (finished) files_.push_back(std::move(file));
  return finished;
}

Expected<bool> OutputSet::commit() {
  for (auto& file : files_) {
    auto committed = file->commit();
    if (!committed) return committed;
  }
  return true;
}

}  // namespace fxc
