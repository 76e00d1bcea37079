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

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

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
  // Closes the file without giving it its name yet: for several files that take their names
  // together, once all are written (a failure before then leaves none of them).
  Expected<bool> finish();
  // Finishes the file and, for a regular file, renames the temporary into place.
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
  size_t slot_ = SIZE_MAX;  // where a signal handler finds temp_
};

// Files that take their names together: each is written and closed as it is added, and
// commit() names them all, in order, once every one is written. A failure before that leaves
// none of them (and whatever had their names before).
class OutputSet {
 public:
  Expected<bool> add(const std::string& path, const std::string& bytes);
  Expected<bool> commit();

 private:
  std::vector<std::unique_ptr<OutputFile>> files_;
};

// Removes every temporary file not yet renamed into place: for a signal handler that then exits
// (async-signal-safe).
void removeUnfinishedOutputs();

}  // namespace fxc
