#include "icx/catalog/catalog.hpp"

#include <algorithm>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "base/embedded_files.hpp"
#include "base/json_reader.hpp"
#include "catalog/parse.hpp"
#include "icx/base/error.hpp"
#include "icx/base/limits.hpp"
#include "icx/catalog/group_rules.hpp"
#include "icx/util/spelling.hpp"
#include "icx/util/text_file.hpp"

namespace icx {

namespace {

/// Same id replaces the existing entry in place; a new id is appended.
template <class T> void merge(std::vector<T>& into, std::vector<T>& from) {
  std::unordered_map<std::string, std::size_t> position; // folded id -> entry
  for (std::size_t i = 0; i < into.size(); ++i) {
    position.emplace(fold_case(into[i].id), i);
  }
  for (T& entry : from) {
    const auto [existing, added] = position.emplace(fold_case(entry.id), into.size());
    if (added) {
      into.push_back(std::move(entry));
    } else {
      into[existing->second] = std::move(entry);
    }
  }
}

/// After merging, an alias of one entry must not name another entry. Returns every entry's
/// names.
template <class T>
NameIndex check_unique_names(const std::vector<T>& entries, std::string_view kind) {
  NameIndex owner;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const T& entry = entries[i];
    std::vector<std::string> names = entry.aliases;
    names.insert(names.begin(), entry.id);
    for (const std::string& name : names) {
      const auto [it, inserted] = owner.emplace(fold_case(name), i);
      if (!inserted && it->second != i) {
        const T& first = entries[it->second];
        throw CatalogError(fmt::format("{}: {} '{}' uses the name '{}', already used by {} '{}' "
                                       "from {}",
                                       entry.origin, kind, entry.id, name, kind, first.id,
                                       first.origin));
      }
    }
  }
  return owner;
}

/// The entry of `entries` that `query` names, or nullptr.
template <class T>
const T* find_named(std::span<const T> entries, const NameIndex& names, std::string_view query) {
  const auto found = names.find(fold_case(query));
  return found == names.end() ? nullptr : &entries[found->second];
}

template <class T>
const T& find(std::span<const T> entries, const NameIndex& names, std::string_view query,
              std::string_view kind) {
  // Found: no text built (a sweep looks entries up at every point).
  if (const T* entry = find_named(entries, names, query)) {
    return *entry;
  }
  std::vector<std::string> candidates;
  std::string known;
  for (const T& entry : entries) {
    candidates.insert(candidates.end(), entry.aliases.begin(), entry.aliases.end());
    candidates.push_back(entry.id);
    known += known.empty() ? "" : ", ";
    known += entry.id;
  }
  std::string message = fmt::format("unknown {} '{}'; known: {}", kind, query, known);
  if (const auto suggestion = nearest(query, candidates)) {
    const auto owner = std::ranges::find_if(entries, [&](const T& e) {
      return e.id == *suggestion || std::ranges::find(e.aliases, *suggestion) != e.aliases.end();
    });
    message += fmt::format(" (did you mean '{}'?)", owner->id);
  }
  throw LookupError(message);
}

/// The entry whose id or alias is the longest prefix of `folded` ("llama-3.1-8b" of
/// "llama-3.1-8b-instruct-fp8"), or nullptr.
template <class T> const T* longest_prefix(std::span<const T> entries, const std::string& folded) {
  const T* best = nullptr;
  std::size_t best_length = 0;
  for (const T& entry : entries) {
    std::vector<std::string> names(entry.aliases.begin(), entry.aliases.end());
    names.push_back(entry.id);
    for (const std::string& name : names) {
      const std::string prefix = fold_case(name);
      if (prefix.size() > best_length && folded.starts_with(prefix)) {
        best = &entry;
        best_length = prefix.size();
      }
    }
  }
  return best;
}

} // namespace

Catalog Catalog::shipped() {
  Catalog catalog;
  for (const detail::EmbeddedFile& file : detail::embedded_catalog_files()) {
    catalog.overlay_text(file.text, "<shipped>/" + std::string(file.name));
  }
  return catalog;
}

void Catalog::overlay_text(std::string_view text, const std::string& origin) {
  CatalogEntries document = detail::parse_catalog(text, origin);
  Catalog next = *this;
  detail::for_each_section(next.entries_, document, next.names_,
                           [](auto& into, auto& from, NameIndex& names, std::string_view kind) {
                             merge(into, from);
                             names = check_unique_names(into, kind);
                           });
  next.complete_engine_curves();
  next.borrow_curves();
  next.borrow_engine_costs();
  next.check_references();
  *this = std::move(next);
}

void Catalog::overlay_file(const std::filesystem::path& path) {
  overlay_text(read_text_file(path, {"a JSON catalog file", limits::max_catalog_file_bytes}),
               path.string());
}

namespace {
/// Whether an id or alias names an entry of a section, case-insensitively.
bool known(const NameIndex& names, std::string_view name) {
  return names.contains(fold_case(name));
}

/// Why `link` cannot join the GPUs of a scale-up domain, or nothing: a scale-out link joins
/// nodes, and a CPU↔GPU link joins no GPUs.
std::string scale_up_problem(const Link& link) {
  if (link.tier == Tier::scale_out) {
    return fmt::format("'{}' is a scale-out link; a domain's GPUs are joined by a scale-up or "
                       "PCIe link",
                       link.id);
  }
  if (const Check wire = check_collective_wire(link); !wire) {
    return wire.reason();
  }
  return {};
}

} // namespace

namespace {

/// A GPU's references: its scale-up link joins GPUs and holds its domain, its peaks name
/// known dtypes.
void check_gpu_references(const Catalog& catalog, const CatalogNames& names, const Gpu& gpu) {
  if (!known(names.links, gpu.scale_up_link)) {
    throw CatalogError(fmt::format("{}: gpu '{}': scale_up_link '{}' is not a known link id",
                                   gpu.origin, gpu.id, gpu.scale_up_link));
  }
  const Link& up = catalog.link(gpu.scale_up_link);
  if (const std::string problem = scale_up_problem(up); !problem.empty()) {
    throw CatalogError(fmt::format("{}: gpu '{}': scale_up_link: {}", gpu.origin, gpu.id, problem));
  }
  if (const Check check = check_domain_size(up, gpu.scale_up_domain); !check) {
    throw CatalogError(fmt::format("{}: gpu '{}': scale_up_domain {}: {}", gpu.origin, gpu.id,
                                   gpu.scale_up_domain, check.reason()));
  }
  for (const auto& [dtype, peak] : gpu.dense_peak) {
    if (!known(names.dtypes, dtype)) {
      throw CatalogError(fmt::format("{}: gpu '{}': dense_tflops names unknown dtype '{}'",
                                     gpu.origin, gpu.id, dtype));
    }
  }
  // By id: the key is what a workload's engine is looked up by.
  for (const auto& [engine, curves] : gpu.engine_curves) {
    if (std::ranges::find(catalog.engines(), engine, &Engine::id) == catalog.engines().end()) {
      throw CatalogError(fmt::format("{}: gpu '{}': engine_curves '{}' is not a catalog engine id",
                                     gpu.origin, gpu.id, engine));
    }
  }
}

/// The node's own links between its domains: its PCIe, for a node of several domains.
Check check_between_domains(const Catalog& catalog, const CatalogNames& names,
                            const System& system) {
  if (system.between_domains_link.empty()) {
    return {};
  }
  if (!known(names.links, system.between_domains_link) ||
      catalog.link(system.between_domains_link).tier != Tier::host) {
    return unexpected(fmt::format("between_domains_link '{}' is not a known host link id (tier "
                                  "\"host\"): the domains of one node are joined by its PCIe",
                                  system.between_domains_link));
  }
  if (system.scale_up_domain >= system.gpus_per_node) {
    return unexpected(fmt::format("between_domains_link is given but the {}-GPU node is one "
                                  "{}-GPU scale-up domain",
                                  system.gpus_per_node, system.scale_up_domain));
  }
  return {};
}

/// The parts of a system must agree: its GPU has its scale-up link, the link joins its
/// domain, the domains fill the node, and separate domains are joined by a scale-out link.
Check check_system_parts(const Catalog& catalog, const CatalogNames& names, const System& system,
                         std::string host_problem) {
  const Link& up = catalog.link(system.scale_up_link);
  const Link& out = catalog.link(system.scale_out_link);
  if (Check check = check_group_link(&catalog.gpu(system.gpu), system.scale_up_domain, up);
      !check) {
    return check;
  }
  if (const std::string problem = scale_up_problem(up); !problem.empty()) {
    return unexpected("scale_up_link: " + problem);
  }
  if (system.scale_up_domain < system.gpus_per_node &&
      system.gpus_per_node % system.scale_up_domain != 0) {
    return unexpected(fmt::format("scale_up_domain {} does not divide the {}-GPU node; a node "
                                  "holds whole domains",
                                  system.scale_up_domain, system.gpus_per_node));
  }
  if (out.tier != Tier::scale_out) {
    return unexpected(fmt::format("scale_out_link '{}' is a {} link; nodes are joined by a "
                                  "scale-out link",
                                  system.scale_out_link, to_string(out.tier)));
  }
  if (Check check = check_between_domains(catalog, names, system); !check) {
    return check;
  }
  if (!host_problem.empty()) {
    return unexpected(std::move(host_problem));
  }
  return {};
}

/// `host_problem`: what is wrong with the system's host side (Catalog::host_side_problem).
void check_system_references(const Catalog& catalog, const CatalogNames& names,
                             const System& system, std::string host_problem) {
  if (!known(names.gpus, system.gpu)) {
    throw CatalogError(fmt::format("{}: system '{}': gpu '{}' is not a known gpu id", system.origin,
                                   system.id, system.gpu));
  }
  for (const std::string& link : {system.scale_up_link, system.scale_out_link}) {
    if (!known(names.links, link)) {
      throw CatalogError(fmt::format("{}: system '{}': link '{}' is not a known link id",
                                     system.origin, system.id, link));
    }
  }
  if (const Check check = check_system_parts(catalog, names, system, std::move(host_problem));
      !check) {
    throw CatalogError(
        fmt::format("{}: system '{}': {}", system.origin, system.id, check.reason()));
  }
}

} // namespace

void Catalog::check_references() const {
  // Dtypes may come from a later file only if nothing refers to them yet; the shipped
  // catalog lists dtypes first for that reason.
  // A reference may use an id or an alias, as a user would on the command line.
  for (const Gpu& gpu : gpus()) {
    check_gpu_references(*this, names_, gpu);
  }
  for (const Model& model : models()) {
    if (!known(names_.dtypes, model.default_dtype)) {
      throw CatalogError(fmt::format("{}: model '{}': default_dtype '{}' is not a known dtype id",
                                     model.origin, model.id, model.default_dtype));
    }
    if (!model.expert_dtype.empty() && !known(names_.dtypes, model.expert_dtype)) {
      throw CatalogError(fmt::format("{}: model '{}': expert_dtype '{}' is not a known dtype id",
                                     model.origin, model.id, model.expert_dtype));
    }
    for (const auto& [dtype, id] : model.checkpoints) {
      if (!known(names_.dtypes, dtype)) {
        throw CatalogError(fmt::format("{}: model '{}': checkpoints: '{}' is not a known dtype "
                                       "id (the dtype the checkpoint's weights are stored in)",
                                       model.origin, model.id, dtype));
      }
    }
  }
  for (const Dtype& dtype : dtypes()) {
    for (const std::string& other : {dtype.compute_as, dtype.weight_only_as, dtype.kernels_as}) {
      if (!other.empty() && !known(names_.dtypes, other)) {
        throw CatalogError(fmt::format("{}: dtype '{}': '{}' is not a known dtype id", dtype.origin,
                                       dtype.id, other));
      }
    }
    check_kernels_as(dtype);
  }
  for (const Engine& engine : engines()) {
    check_kernels_from(engine);
  }
  for (const System& system : systems()) {
    check_system_references(*this, names_, system,
                            system.host ? host_side_problem(*system.host) : std::string());
  }
}

std::string Catalog::host_side_problem(const HostSide& host) const {
  if (!known(names_.links, host.link) || link(host.link).tier != Tier::host) {
    return fmt::format("host.link '{}' is not a known host link id (tier \"host\")", host.link);
  }
  if (host.nvme_drives > 0 && !known(names_.storage, host.nvme_tier)) {
    return fmt::format("host.nvme '{}' is not a known storage tier id", host.nvme_tier);
  }
  if (host.nvme_drives > 0 && storage(host.nvme_tier).scope != StorageScope::per_node) {
    return fmt::format("host.nvme '{}' is a shared storage tier; the node's own drives are a "
                       "per-node tier (scope \"per-node\")",
                       host.nvme_tier);
  }
  return {};
}

const Link& Catalog::link(std::string_view query) const {
  return find(links(), names_.links, query, "wire");
}
const Gpu& Catalog::gpu(std::string_view query) const {
  return find(gpus(), names_.gpus, query, "gpu");
}
const Model& Catalog::model(std::string_view query) const {
  if (const Model* named = find_named(models(), names_.models, query)) {
    return *named;
  }
  // A Hugging Face id: the model one of whose checkpoints it is.
  const std::string folded = fold_case(query);
  for (const Model& candidate : models()) {
    for (const auto& [dtype, checkpoint] : candidate.checkpoints) {
      if (fold_case(checkpoint) == folded) {
        return candidate;
      }
    }
  }
  const std::size_t slash = query.rfind('/');
  if (slash == std::string_view::npos) {
    return find(models(), names_.models, query, "model");
  }
  // Another one: its name after the organisation may still be a model's, or near one.
  try {
    return find(models(), names_.models, query.substr(slash + 1), "model");
  } catch (const LookupError& error) {
    std::string message = error.what();
    if (message.find("did you mean") == std::string::npos) {
      if (const Model* prefix = longest_prefix(models(), fold_case(query.substr(slash + 1)))) {
        message += fmt::format(" (did you mean '{}'?)", prefix->id);
      }
    }
    throw LookupError(fmt::format("{} (from the Hugging Face id '{}', which no catalog model "
                                  "lists among its checkpoints; {} DIR/config.json reads any "
                                  "model's config)",
                                  message, query, Knob::hf_config));
  }
}
const Dtype& Catalog::dtype(std::string_view query) const {
  return find(dtypes(), names_.dtypes, query, "dtype");
}
const System& Catalog::system(std::string_view query) const {
  return find(systems(), names_.systems, query, "system");
}
const StorageTier& Catalog::storage(std::string_view query) const {
  return find(storage_tiers(), names_.storage, query, "storage tier");
}
const Loader& Catalog::loader(std::string_view query) const {
  return find(loaders(), names_.loaders, query, "loader");
}

const Engine& Catalog::engine(std::string_view query) const {
  return find(engines(), names_.engines, query, "engine");
}

std::string_view convention_label(Convention convention) {
  return convention == Convention::both_directions_summed ? "both ways summed" : "each way";
}

void Model::set_total_params(double params) {
  if (!is_moe() || active_params > params) {
    active_params = params;
  }
  total_params = params;
}

} // namespace icx
