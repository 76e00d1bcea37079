// Reading the files fxc is given (models, .npy inputs). What cannot be a file of data is refused
// before it is read: a directory, a device (`/dev/zero` would be read forever), a socket. Regular
// files, FIFOs and pipes (`-`, `<(cmd)`) are read, a stream up to a stated limit.
#pragma once

#include <sys/types.h>

#include <string>

#include "ir/expected.h"

namespace fxc {

// Why a file of this type (fstat's st_mode) is not read as input, or "" when it is.
std::string notAnInputFile(mode_t mode);

// Reads `fd` to its end into `out`; an error once more than `limit` bytes have come, or when a
// read fails. `expected`: the size it likely has (a regular file's), read without regrowing.
Expected<bool> readStream(int fd, std::string& out, size_t limit, size_t expected = 0);

// The whole file at `path` (regular, FIFO or pipe), at most `limit` bytes.
Expected<std::string> readInputFile(const std::string& path, size_t limit);

}  // namespace fxc
