// Reads a Hugging Face config.json into a Model: the architecture it describes, and the
// parameter counts worked out from it (icx/catalog/parameter_count.hpp).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "icx/catalog/catalog.hpp"

namespace icx {

/// Parses the text of a config.json. `origin` names it in error messages and becomes the
/// model's id. Fields icx does not use are ignored; a missing, mistyped, out-of-range or
/// contradictory field it does use throws CatalogError "origin: /pointer: reason". The
/// model's default_dtype is empty when the config names none.
Model read_hf_config(std::string_view text, const std::string& origin);

/// Reads the config.json at `path`; errors name the path as given.
Model read_hf_config_file(const std::filesystem::path& path);

} // namespace icx
