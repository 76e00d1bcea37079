// Where the unit tests find testdata/models: under $FXC_SOURCE_DIR when it is set (a build carried
// to another machine, as scripts/gpu_bundle.sh does), else in the tree they were built from.
#pragma once

#include <cstdlib>
#include <string>

inline std::string testModelsDir() {
  const char* dir = std::getenv("FXC_SOURCE_DIR");
  return std::string(dir != nullptr && *dir != '\0' ? dir : FXC_SOURCE_DIR) + "/testdata/models";
}
