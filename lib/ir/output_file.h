// Every file fxc writes (models, external data, .npy outputs) goes through OutputFile, so that
// one mechanism decides how a path is written:
//   - "-": standard output;
//   - a regular file, or nothing yet: a temporary file in the same directory, renamed over the
//     path by commit() only when complete (a failure leaves the old file, or nothing, behind);
//   - a symbolic link: the same, applied to the file the link points to; the link stays a link;
//   - a character or block device or a FIFO (`-o /dev/null`, a pipe): opened and written in
//     place, never replaced by a regular file;
//   - a directory or a socket: refused.
#pragma once

#include <string>

#include "ir/expected.h"

namespace fxc {

// The path that writing `path` ends up replacing or creating: symbolic links followed (a link
// to a file that does not exist yet names the file to create). Errors for a loop of links.
Expected<std::string> resolveOutputPath(const std::string& path);

class OutputFile {
 public:
  explicit OutputFile(const std::string& path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Writes stop at the first error, which commit() reports.
  void write(const void* data, size_t size);
  void write(const std::string& bytes) { write(bytes.data(), bytes.size()); }
  // Finishes the file: closes it and, for a regular file, renames the temporary into place.
  Expected<bool> commit();
  // The temporary file the bytes go to before commit(): "" when written in place (stdout, a
  // device, a FIFO). What is written can be read back from it before it takes its name.
  const std::string& pendingPath() const { return temp_; }

 private:
  std::string path_;    // as given, for messages
  std::string target_;  // where the bytes end up (links followed)
  std::string temp_;    // the temporary file, when writing through a rename
  std::string error_;
  int fd_ = -1;
  bool committed_ = false;
};

// The temporary file being written, or "": for a signal handler to remove (async-signal-safe to
// read; a fixed buffer, never freed).
const char* unfinishedOutput();

}  // namespace fxc
