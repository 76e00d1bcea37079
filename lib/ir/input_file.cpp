#include "ir/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace fxc {

std::string notAnInputFile(mode_t mode) {
  if (S_ISDIR(mode)) return "is a directory";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "is a device";
  if (S_ISSOCK(mode)) return "is a socket";
  return "";
}

Expected<bool> readStream(int fd, std::string& out, size_t limit, size_t expected) {
  size_t size = 0;
  out.resize(std::max<size_t>(1 << 20, expected + 1));  // +1: the end is seen without regrowing
  while (true) {
    if (size == out.size()) out.resize(out.size() * 2);
    ssize_t n = ::read(fd, out.data() + size, out.size() - size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Error{std::string("cannot read: ") + std::strerror(errno)};
    if (n == 0) break;
    size += static_cast<size_t>(n);
    if (size > limit)
      return Error{"larger than " + std::to_string(limit >> 20) + " MiB; not read further"};
  }
  out.resize(size);
  out.shrink_to_fit();
  return true;
}

Expected<std::string> readInputFile(const std::string& path, size_t limit) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Error{std::string("cannot open: ") + std::strerror(errno)};
  struct stat info {};
  std::string why = ::fstat(fd, &info) != 0 ? std::string("cannot stat: ") + std::strerror(errno)
                                            : notAnInputFile(info.st_mode);
  if (!why.empty()) {
    ::close(fd);
    return Error{why + ", not a file of data"};
  }
  std::string bytes;
  if (S_ISREG(info.st_mode) && static_cast<size_t>(info.st_size) > limit) {
    ::close(fd);
    return Error{"larger than " + std::to_string(limit >> 20) + " MiB; not read"};
  }
  auto read = readStream(fd, bytes, limit,
                         S_ISREG(info.st_mode) ? static_cast<size_t>(info.st_size) : 0);
  ::close(fd);
  if (!read) return Error{read.error()};
  return bytes;
}

}  // namespace fxc
