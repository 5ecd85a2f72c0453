// Parsing of catalog documents into entries (one function per kind of entry).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "icx/catalog.hpp"

namespace icx::detail {

/// Parses and validates one document. Throws CatalogError naming `origin` and a JSON Pointer.
CatalogEntries parse_catalog(std::string_view text, const std::string& origin);

/// Calls `visit(a.section, b.section, "kind")` for every section of two catalogs.
template <class Visit> void for_each_section(CatalogEntries& a, CatalogEntries& b, Visit visit) {
  visit(a.links, b.links, "link");
  visit(a.gpus, b.gpus, "gpu");
  visit(a.models, b.models, "model");
  visit(a.dtypes, b.dtypes, "dtype");
  visit(a.systems, b.systems, "system");
  visit(a.storage, b.storage, "storage tier");
}

} // namespace icx::detail
