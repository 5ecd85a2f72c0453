#include "catalog/parse.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "base/json_reader.hpp"
#include "icx/base/error.hpp"
#include "icx/base/limits.hpp"
#include "icx/catalog/json.hpp"
#include "icx/util/spelling.hpp"
#include "icx/util/text.hpp"

namespace icx::detail {

using nlohmann::json;

namespace {

using limits::max_domain;

/// Refuses an id a flag could not name: one that starts with '-' (read as a flag) or holds a
/// comma (lists of ids split at commas), a blank or a character outside letters, digits and
/// ". _ + -".
void check_addressable(ObjectReader& reader, std::string_view id) {
  const bool allowed = std::ranges::all_of(id, [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '_' || c == '+' ||
           c == '-';
  });
  if (!allowed || id.starts_with('-')) {
    reader.fail("id", fmt::format("'{}' cannot be given to a flag; an id is letters, digits, '.', "
                                  "'_', '+' and '-', not starting with '-'",
                                  id));
  }
}

Dtype read_dtype(ObjectReader& reader, const std::string& origin) {
  Dtype dtype;
  read_entry(reader, dtype, origin);
  dtype.bytes_per_element = reader.positive("bytes_per_element", limits::bytes_per_element);
  if (reader.has("compute_as")) {
    dtype.compute_as = reader.text("compute_as");
    dtype.weight_only_as = reader.text("weight_only_as");
  } else if (reader.has("weight_only_as")) {
    reader.fail("weight_only_as", "given without compute_as");
  }
  if (reader.has("kernels_as")) {
    dtype.kernels_as = reader.text("kernels_as");
  }
  return dtype;
}

/// A system's host side under "host": the GPUs' host link, how many share a switch uplink,
/// DRAM per node and its bandwidth, and the local NVMe drives (both keys or neither).
HostSide read_host_side(ObjectReader& system, const std::string& origin) {
  ObjectReader reader(system.object("host"), system.pointer_to("host"), origin);
  HostSide host;
  host.link = reader.text("link");
  host.gpus_per_uplink = reader.whole("gpus_per_uplink", 1, max_domain);
  host.dram = Bytes::of(reader.positive("dram_GB", limits::host_capacity_GB) * giga);
  host.dram_bandwidth = gigabytes_per_second(reader.positive("dram_GBps", limits::bandwidth_GBps));
  if (reader.has("nvme_drives") != reader.has("nvme")) {
    reader.fail(reader.has("nvme") ? "nvme" : "nvme_drives",
                "given without the other: local drives need nvme_drives and nvme (the storage "
                "tier of one drive)");
  }
  if (reader.has("nvme")) {
    host.nvme_drives = reader.whole("nvme_drives", 1, limits::max_nvme_drives);
    host.nvme_tier = reader.text("nvme");
  }
  host.source = reader.text("source");
  reader.finish();
  return host;
}

/// "YYYY-MM-DD", or "YYYY-MM" when a source gives only the month, with a month 01–12 and a
/// day 01–31.
bool is_iso_date(std::string_view text) {
  const auto digits = [&](std::size_t from, std::size_t count) {
    return std::all_of(text.begin() + static_cast<std::ptrdiff_t>(from),
                       text.begin() + static_cast<std::ptrdiff_t>(from + count),
                       [](char c) { return c >= '0' && c <= '9'; });
  };
  constexpr std::size_t month_only = 7;
  constexpr std::size_t full = 10;
  if ((text.size() != month_only && text.size() != full) || text[4] != '-' || !digits(0, 4) ||
      !digits(5, 2)) {
    return false;
  }
  const int month = (text[5] - '0') * 10 + (text[6] - '0');
  if (month < 1 || month > 12) {
    return false;
  }
  if (text.size() == month_only) {
    return true;
  }
  const int day = (text[8] - '0') * 10 + (text[9] - '0');
  return text[7] == '-' && digits(8, 2) && day >= 1 && day <= 31;
}

/// A system's list price under "price": USD per node-hour, its date (YYYY-MM-DD) and source.
Price read_price(ObjectReader& system, const std::string& origin) {
  ObjectReader reader(system.object("price"), system.pointer_to("price"), origin);
  Price price;
  price.usd_per_hour = reader.positive("usd_per_hour", limits::usd_per_hour);
  price.date = reader.text("date");
  if (!is_iso_date(price.date)) {
    reader.fail("date", fmt::format("\"{}\" is not a date; write YYYY-MM-DD (the day the price "
                                    "was published or read), or YYYY-MM",
                                    price.date));
  }
  price.source = reader.text("source");
  reader.finish();
  return price;
}

System read_system(ObjectReader& reader, const std::string& origin) {
  System system;
  read_entry(reader, system, origin);
  system.gpu = reader.text("gpu");
  system.gpus_per_node = reader.whole("gpus_per_node", 1, max_domain);
  system.scale_up_link = reader.text("scale_up_link");
  system.scale_up_domain = reader.whole("scale_up_domain", 1, max_domain);
  system.scale_out_link = reader.text("scale_out_link");
  if (reader.has("between_domains_link")) {
    system.between_domains_link = reader.text("between_domains_link");
  }
  // Absent: one NIC per GPU, as the rail-optimised reference designs wire them.
  system.nics_per_node = reader.whole_or("nics_per_node", 1, max_domain, system.gpus_per_node);
  system.rail_optimized = reader.flag_or("rail_optimized", false);
  if (reader.has("host")) {
    system.host = read_host_side(reader, origin);
  }
  if (reader.has("price")) {
    system.price = read_price(reader, origin);
  }
  return system;
}

StorageTier read_storage(ObjectReader& reader, const std::string& origin) {
  StorageTier tier;
  read_entry(reader, tier, origin);
  tier.read_bandwidth = gigabytes_range(reader.positive_range("read_GBps", limits::bandwidth_GBps));
  if (reader.has("scope")) {
    tier.scope = reader.choice<StorageScope>("scope");
  }
  tier.cached = reader.flag_or("cached", false);
  return tier;
}

/// A loader's rates under `key`: per rank and per node, in GB/s.
LoaderRates read_loader_rates(ObjectReader& loader, std::string_view key,
                              const std::string& origin) {
  ObjectReader reader(loader.object(key), loader.pointer_to(key), origin);
  LoaderRates rates;
  rates.rank = gigabytes_per_second(reader.positive("rank_GBps", limits::bandwidth_GBps));
  rates.node = gigabytes_per_second(reader.positive("node_GBps", limits::bandwidth_GBps));
  if (rates.node < rates.rank) {
    reader.fail("node_GBps", "below rank_GBps: a node's ranks together read at least as fast "
                             "as one of them");
  }
  reader.finish();
  return rates;
}

Loader read_loader(ObjectReader& reader, const std::string& origin) {
  Loader loader;
  read_entry(reader, loader, origin);
  loader.buffer = reader.choice<HostBuffer>("buffer");
  loader.warm = read_loader_rates(reader, "warm", origin);
  loader.cold = read_loader_rates(reader, "cold", origin);
  loader.overhead = Seconds::of(reader.positive("overhead_s", limits::budget_seconds));
  return loader;
}

/// Reads the section of `T` (if present) and rejects an id or alias that two of its entries
/// share.
template <class T, class ReadOne>
std::vector<T> read_array(const json& document, const std::string& origin, ReadOne read_one) {
  const std::string_view key = catalog_section<T>;
  std::vector<T> entries;
  if (!document.contains(key)) {
    return entries;
  }
  const json& array = document.at(std::string(key));
  const json::json_pointer pointer = json::json_pointer() / std::string(key);
  if (!array.is_array()) {
    fail_at(origin, pointer, "expected an array, got " + describe(array));
  }
  std::map<std::string, std::string, std::less<>> owner; // folded name -> id
  for (std::size_t i = 0; i < array.size(); ++i) {
    ObjectReader reader(array[i], pointer / i, origin);
    T entry = read_one(reader, origin);
    reader.finish();
    std::vector<std::string> names = entry.aliases;
    names.insert(names.begin(), entry.id);
    for (std::size_t n = 0; n < names.size(); ++n) {
      const auto [it, inserted] = owner.emplace(fold_case(names[n]), entry.id);
      if (!inserted) {
        const json::json_pointer where =
            n == 0 ? pointer / i / "id" : pointer / i / "aliases" / (n - 1);
        fail_at(origin, where,
                fmt::format("duplicate {} '{}': already used by '{}'", n == 0 ? "id" : "alias",
                            names[n], it->second));
      }
    }
    entries.push_back(std::move(entry));
  }
  return entries;
}

} // namespace

void check_printable(ObjectReader& reader, std::string_view key, std::string_view text) {
  if (const std::optional<std::size_t> at = first_hidden_character(text)) {
    reader.fail(key, fmt::format("byte {} is a control character or a bidirectional override; "
                                 "names hold only printable characters",
                                 *at + 1));
  }
}

void read_entry(ObjectReader& reader, Entry& entry, const std::string& origin) {
  entry.id = reader.text("id");
  check_printable(reader, "id", entry.id);
  check_addressable(reader, entry.id);
  entry.name = reader.text("name");
  check_printable(reader, "name", entry.name);
  entry.aliases = reader.text_list("aliases");
  for (const std::string& alias : entry.aliases) {
    check_printable(reader, "aliases", alias);
  }
  entry.source = reader.text("source");
  entry.origin = origin;
}

Range<BytesPerSecond> gigabytes_range(const Range<double>& gbps) {
  return {gigabytes_per_second(gbps.low), gigabytes_per_second(gbps.high)};
}

void read_expert_groups(ObjectReader& reader, Model& model, std::string_view groups_key,
                        std::string_view per_token_key) {
  const int groups = reader.whole(groups_key, 1, model.experts);
  if (model.experts % groups != 0) {
    reader.fail(groups_key, fmt::format("{} does not divide the {} routed experts into equal "
                                        "groups",
                                        groups, model.experts));
  }
  const int per_token = reader.whole(per_token_key, 1, groups);
  const int group_size = model.experts / groups;
  if (per_token * group_size < model.experts_per_token) {
    reader.fail(per_token_key, fmt::format("{} × {} experts per group = {}, fewer than the {} "
                                           "experts a token picks",
                                           per_token, group_size, per_token * group_size,
                                           model.experts_per_token));
  }
  model.expert_groups = groups;
  model.expert_groups_per_token = per_token;
}

void read_sparse_attention(ObjectReader& reader, Model& model, std::string_view topk_key,
                           std::string_view heads_key, std::string_view width_key) {
  if (!model.latent_attention) {
    reader.fail(topk_key, "given without kv_lora_rank (DeepSeek Sparse Attention selects the "
                          "tokens latent attention reads)");
  }
  model.sparse_attention = Model::SparseAttention{reader.whole(topk_key, 1, limits::max_tokens),
                                                  reader.whole(heads_key, 1, limits::max_heads),
                                                  reader.whole(width_key, 1, limits::max_hidden)};
}

CatalogEntries parse_catalog(std::string_view text, const std::string& origin) {
  const json document = parse_document(text, origin);
  if (!document.is_object()) {
    fail_at(origin, json::json_pointer(),
            "expected an object of catalog sections (\"links\", \"gpus\", …), got " +
                describe(document));
  }
  constexpr std::array sections{catalog_section<Link>,   catalog_section<Gpu>,
                                catalog_section<Model>,  catalog_section<Dtype>,
                                catalog_section<System>, catalog_section<StorageTier>,
                                catalog_section<Loader>, catalog_section<Engine>};
  for (const auto& [key, value] : document.items()) {
    if (key == "schema") {
      if (!value.is_string() || value.get<std::string>() != catalog_schema) {
        fail_at(origin, json::json_pointer() / key,
                fmt::format("unknown schema {}; known: \"{}\"", value.dump(), catalog_schema));
      }
    } else if (std::ranges::find(sections, key) == sections.end()) {
      fail_at(origin, json::json_pointer() / key,
              fmt::format("unknown section; known: {}", fmt::join(sections, ", ")));
    }
  }
  CatalogEntries result;
  result.links = read_array<Link>(document, origin, read_link);
  result.gpus = read_array<Gpu>(document, origin, read_gpu);
  result.models = read_array<Model>(document, origin, read_model);
  result.dtypes = read_array<Dtype>(document, origin, read_dtype);
  result.systems = read_array<System>(document, origin, read_system);
  result.storage = read_array<StorageTier>(document, origin, read_storage);
  result.loaders = read_array<Loader>(document, origin, read_loader);
  result.engines = read_array<Engine>(document, origin, read_engine);
  return result;
}

} // namespace icx::detail
