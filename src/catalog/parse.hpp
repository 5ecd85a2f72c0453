// Parsing of catalog documents into entries (one function per kind of entry).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "icx/catalog/catalog.hpp"

namespace icx::detail {

class ObjectReader;

/// The id, name, aliases and source every entry has, checked: printable, and an id a flag can
/// name.
void read_entry(ObjectReader& reader, Entry& entry, const std::string& origin);

/// Refuses a name a terminal would not print as itself (a control character, a bidirectional
/// override): ids, names and aliases are printed and typed back. Throws CatalogError for `key`.
void check_printable(ObjectReader& reader, std::string_view key, std::string_view text);

/// A range of GB/s as bytes per second.
Range<BytesPerSecond> gigabytes_range(const Range<double>& gbps);

/// One entry of "gpus", with its GEMM curves. Throws CatalogError naming `origin` and a JSON
/// Pointer.
Gpu read_gpu(ObjectReader& reader, const std::string& origin);

/// One entry of "models" (src/catalog/parse_model.cpp). Throws CatalogError naming `origin`
/// and a JSON Pointer.
Model read_model(ObjectReader& reader, const std::string& origin);

/// One entry of "links". Throws CatalogError naming `origin` and a JSON Pointer.
Link read_link(ObjectReader& reader, const std::string& origin);

/// One entry of "engines" (src/catalog/parse_engine.cpp). Throws CatalogError naming `origin`
/// and a JSON Pointer.
Engine read_engine(ObjectReader& reader, const std::string& origin);

/// Group-limited routing of an MoE `model` (experts and experts_per_token already read): the
/// group count under `groups_key`, which must split the routed experts evenly, and the groups
/// a token may use under `per_token_key`, which must hold its experts_per_token experts.
/// Throws CatalogError naming the key.
void read_expert_groups(ObjectReader& reader, Model& model, std::string_view groups_key,
                        std::string_view per_token_key);

/// DeepSeek Sparse Attention of a `model` whose latent attention is already read: the indexer's
/// top-k under `topk_key`, and its heads and their width under the other two keys. Throws
/// CatalogError naming `topk_key` when the model has no latent attention.
void read_sparse_attention(ObjectReader& reader, Model& model, std::string_view topk_key,
                           std::string_view heads_key, std::string_view width_key);

/// Parses and validates one document. Throws CatalogError naming `origin` and a JSON Pointer.
CatalogEntries parse_catalog(std::string_view text, const std::string& origin);

/// Calls `visit(a.section, b.section, names.section, "kind")` for every section of two
/// catalogs and the names of the first.
template <class Visit>
void for_each_section(CatalogEntries& a, CatalogEntries& b, CatalogNames& names, Visit visit) {
  visit(a.links, b.links, names.links, "link");
  visit(a.gpus, b.gpus, names.gpus, "gpu");
  visit(a.models, b.models, names.models, "model");
  visit(a.dtypes, b.dtypes, names.dtypes, "dtype");
  visit(a.systems, b.systems, names.systems, "system");
  visit(a.storage, b.storage, names.storage, "storage tier");
  visit(a.loaders, b.loaders, names.loaders, "loader");
  visit(a.engines, b.engines, names.engines, "engine");
}

} // namespace icx::detail
