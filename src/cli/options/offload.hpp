// icx offload's flags and the request they describe: the model, the GPUs, the host links,
// the system whose host side the GPUs share, the host memory and the offloading engine.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "icx/catalog/catalog.hpp"
#include "icx/reports/offload.hpp"
#include "options/common.hpp"
#include "options/host_link.hpp"
#include "options/sweep.hpp"

namespace icx::cli {

struct OffloadOptions {
  CommonOptions common;
  WeightsOptions weights;
  std::string gpu;
  int gpus = 1;
  std::optional<std::int64_t> batch;
  std::optional<std::int64_t> context;
  double reserve = default_memory_reserve;
  std::vector<std::string> host_links;
  std::string system;
  std::optional<std::string> host_memory;
  OffloadEngine engine = OffloadEngine::vllm;
  std::optional<double> hbm_fraction;
  std::string tuning;
  SweepOptions sweep;
};

/// Every flag of icx offload but the common ones.
void add_offload_options(CLI::App& app, OffloadOptions& options);

/// Where the host memory figure comes from, in words: "--host-memory", "dgx-h100: 2 nodes ×
/// 2.05 TB"; empty when none was given.
struct HostMemoryOrigin {
  std::string flag;
  std::string words;
};

/// The request the flags describe for `model`. --system gives the GPU, the host link, the
/// host share and the host memory (its DRAM per node × nodes); --gpu, --host-link and
/// --host-memory override them. Throws UsageError naming the flag at fault.
OffloadRequest offload_request(const Catalog& catalog, const OffloadOptions& options,
                               const ResolvedModel& model, HostMemoryOrigin& origin);

/// Throws UsageError naming the origin's flag when the spill does not fit in host memory.
void check_host_memory(const OffloadReport& report, const HostMemoryOrigin& origin);

/// The parameters offload sweeps: the KV load's batch and context. A decode step takes one
/// token per sequence, so prompt tokens do not apply.
inline constexpr std::array<SweepParam, 2> offload_sweep_params = {SweepParam::batch,
                                                                   SweepParam::context};

} // namespace icx::cli
