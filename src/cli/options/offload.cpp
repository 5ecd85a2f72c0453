#include "options/offload.hpp"

#include <fmt/format.h>

#include "icx/base/limits.hpp"
#include "icx/base/units_format.hpp"
#include "icx/catalog/group_rules.hpp"
#include "options/serving.hpp"
#include "options/size.hpp"

namespace icx::cli {

void add_offload_options(CLI::App& app, OffloadOptions& options) {
  const std::size_t first = app.get_options().size();
  add_weights_options(app, options.weights);
  app.add_option("--gpu", options.gpu, "GPU id or alias (see 'icx gpus'); default: the --system's")
      ->type_name("ID");
  app.add_option("-g,--gpus", options.gpus, "GPUs sharing weights and KV cache in equal parts")
      ->type_name("N")
      ->default_str("1")
      ->transform(whole_number(1, limits::max_domain));
  app.add_option("-s,--system", options.system,
                 "System (see 'icx systems') whose host side the GPUs share: its GPU, host link, "
                 "GPUs per switch uplink, host DRAM and its bandwidth")
      ->type_name("ID");
  app.add_option("--host-memory", options.host_memory,
                 "Host memory the spill must fit in, all nodes together (e.g. 512GB, 2TiB); "
                 "default: the --system's DRAM per node × nodes")
      ->type_name("BYTES");
  app.add_option_function<int>(
         "--offload-engine",
         [&options](int engine) { options.engine = static_cast<OffloadEngine>(engine); },
         "How the copy meets compute: vllm (--cpu-offload-gb, copies on the compute "
         "stream, no overlap) or prefetch (a prefetching offloader, best-case overlap)")
      ->type_name("ENGINE")
      ->default_str("vllm")
      ->transform(enum_choice<OffloadEngine>("offload engine"));
  add_batch_option(app, options.batch, "Sequences in the batch (KV cache; with --context)");
  add_context_option(app, options.context,
                     "Tokens of context per sequence (KV cache; with --batch)");
  add_reserve_option(app, options.reserve);
  add_hbm_fraction_option(app, options.hbm_fraction);
  add_tuning_option(app, options.tuning,
                    "it sets the HBM fraction a decode step's reads reach, as for 'icx place'");
  add_host_link_option(app, options.host_links);
  add_sweep_options(app, options.sweep, offload_sweep_params);
  group_options_from(app, first, "Offload");
}

namespace {

/// The KV load --batch and --context describe: both or neither.
std::optional<KvLoad> kv_load(const OffloadOptions& options, const ResolvedModel& model) {
  if (!options.batch && !options.context) {
    return std::nullopt;
  }
  if (!options.batch || !options.context) {
    throw UsageError(fmt::format("{}: given without {}; the KV cache needs both (e.g. --batch 8 "
                                 "--context 8192)",
                                 options.batch ? "--batch" : "--context",
                                 options.batch ? "--context" : "--batch"));
  }
  if (model.model.kv_heads < 1 || model.model.head_dim < 1) {
    throw UsageError("--batch: the KV cache needs the model's KV heads and head dimension, which "
                     "a custom model (--hidden, --layers) does not give; use --model ID");
  }
  return KvLoad{*options.batch, *options.context};
}

/// --host-memory, or the system's DRAM per node × the nodes the GPUs fill; nothing when
/// neither is known.
std::optional<Bytes> host_memory(const OffloadOptions& options, const System* system,
                                 HostMemoryOrigin& origin) {
  if (options.host_memory) {
    const std::optional<Bytes> bytes = size_value(*options.host_memory);
    if (!bytes) {
      throw UsageError(size_error("--host-memory", *options.host_memory) + "; e.g. 512GB or 2TiB");
    }
    origin = {"--host-memory", ""};
    return bytes;
  }
  if (system == nullptr) {
    return std::nullopt;
  }
  if (!system->host) {
    throw UsageError(fmt::format("--system: the catalog does not describe the host side of {} "
                                 "(host memory, host link); give --host-memory BYTES (e.g. 2TB) "
                                 "and --host-link ID",
                                 system->id));
  }
  const int nodes = node_count(options.gpus, system->gpus_per_node);
  origin = {"--system", fmt::format("{}: {} node{} × {} DRAM", system->id, nodes,
                                    nodes == 1 ? "" : "s", format_bytes(system->host->dram))};
  return icx::host_memory(*system, options.gpus);
}

} // namespace

OffloadRequest offload_request(const Catalog& catalog, const OffloadOptions& options,
                               const ResolvedModel& model, HostMemoryOrigin& origin) {
  const System* system =
      options.system.empty() ? nullptr : &for_flag("--system", [&]() -> const System& {
        return catalog.system(options.system);
      });
  const std::string gpu = options.gpu.empty() && system != nullptr ? system->gpu : options.gpu;
  if (gpu.empty()) {
    throw UsageError("no GPU given: use --gpu ID (e.g. --gpu h100; see 'icx gpus') or --system "
                     "ID (see 'icx systems')");
  }
  OffloadRequest request;
  request.model = &model.model;
  request.dtype = &model.dtype;
  request.expert_dtype = &model.expert_dtype;
  request.gpu = &for_flag("--gpu", [&]() -> const Gpu& { return catalog.gpu(gpu); });
  request.gpus = options.gpus;
  request.reserve = options.reserve;
  request.kv = kv_load(options, model);
  request.host_memory = host_memory(options, system, origin);
  const bool system_link = options.host_links.empty() && system != nullptr && system->host;
  request.host_links = system_link ? host_links(catalog, "--system", {system->host->link})
                                   : host_links(catalog, "--host-link", options.host_links);
  request.engine = options.engine;
  request.system = system;
  request.hbm_fraction = options.hbm_fraction;
  request.tuning = tuning_flag(catalog, options.tuning);
  return request;
}

void check_host_memory(const OffloadReport& report, const HostMemoryOrigin& origin) {
  const Offload& r = report.result;
  if (!r.fits_host_memory || *r.fits_host_memory) {
    return;
  }
  const std::string from = origin.words.empty() ? "" : " (" + origin.words + ")";
  throw UsageError(fmt::format("{}: the spill of {} does not fit in {} of host memory{}: short "
                               "by {}; give more host memory, more GPUs or a smaller dtype",
                               origin.flag, format_bytes(r.spilled), format_bytes(*r.host_memory),
                               from, format_bytes(r.spilled - *r.host_memory)));
}

} // namespace icx::cli
