// What the Hugging Face config tests share: the fixtures' folder, the error a config is read
// with, and the relative error against a published count.
#pragma once

#include <cmath>
#include <string>

#include "icx/base/error.hpp"
#include "icx/catalog/hf_config.hpp"

namespace icx::test {

inline const std::string hf_dir = std::string(ICX_TEST_DATA_DIR) + "/hf/";

/// |actual / published − 1|, the relative error against a published parameter count.
inline double relative_error(double actual, double published) {
  return std::abs(actual / published - 1.0);
}

/// The message of the CatalogError that reading `text` throws.
inline std::string hf_error_of(const std::string& text) {
  try {
    (void)read_hf_config(text, "config.json");
  } catch (const CatalogError& error) {
    return error.what();
  }
  return "(no error)";
}

} // namespace icx::test
