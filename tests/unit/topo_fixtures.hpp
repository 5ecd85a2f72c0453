// The published topology outputs of ../shared/topo, read where they are (never copied into
// the repository); tests that need them skip when the folder is absent.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#ifndef ICX_TOPO_FIXTURE_DIR
#define ICX_TOPO_FIXTURE_DIR "../shared/topo"
#endif

namespace icx::test {

// The published outputs and INDEX.csv live beside the clone (../shared/topo) and are read
// where they are; ICX_TOPO_FIXTURES overrides the folder.
inline std::filesystem::path fixture_dir() {
  if (const char* dir = std::getenv("ICX_TOPO_FIXTURES"); dir != nullptr && *dir != '\0') {
    return dir;
  }
  return ICX_TOPO_FIXTURE_DIR;
}

inline std::string fixture(const std::string& name) {
  std::ifstream in(fixture_dir() / name, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

#define SKIP_WITHOUT_FIXTURES()                                                                    \
  if (!std::filesystem::is_directory(icx::test::fixture_dir())) {                                  \
    GTEST_SKIP() << "no topology fixtures at " << icx::test::fixture_dir();                        \
  }

} // namespace icx::test
