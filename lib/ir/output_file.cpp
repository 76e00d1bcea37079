#include "ir/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace fxc {
namespace {

char g_unfinished[4096] = "";

void noteUnfinished(const std::string& path) {
  size_t n = std::min(path.size(), sizeof g_unfinished - 1);
  std::memcpy(g_unfinished, path.data(), n);
  g_unfinished[n] = '\0';
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

const char* unfinishedOutput() { return g_unfinished; }

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
    noteUnfinished(temp_);
    ::fchmod(fd_, exists ? info.st_mode & 07777 : newFileMode());
  }
}

OutputFile::~OutputFile() {
  if (fd_ >= 0 && fd_ != STDOUT_FILENO) ::close(fd_);
  if (!temp_.empty()) {
    if (!committed_) ::unlink(temp_.c_str());
    noteUnfinished("");
  }
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

Expected<bool> OutputFile::commit() {
  if (error_.empty() && fd_ != STDOUT_FILENO) {
    if (::close(fd_) != 0) error_ = std::strerror(errno);
    fd_ = -1;
    if (error_.empty() && !temp_.empty() && ::rename(temp_.c_str(), target_.c_str()) != 0)
      error_ = std::strerror(errno);
    committed_ = error_.empty();
  }
  if (!error_.empty())
    return Error{"cannot write " + (path_ == "-" ? std::string("to stdout") : path_) + ": " +
                 error_};
  return true;
}

}  // namespace fxc
