// Parsing of catalog documents into entries (one function per kind of entry).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "icx/catalog.hpp"

namespace icx::detail {

/// Everything one catalog document declares, in document order.
struct CatalogDocument {
  std::vector<Link> links;
  std::vector<Gpu> gpus;
  std::vector<Model> models;
  std::vector<Dtype> dtypes;
};

/// Parses and validates one document. Throws CatalogError naming `origin` and a JSON Pointer.
CatalogDocument parse_catalog(std::string_view text, const std::string& origin);

} // namespace icx::detail
