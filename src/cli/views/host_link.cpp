#include "views/host_link.hpp"

#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "icx/base/units_format.hpp"
#include "options/host_link.hpp"

namespace icx::cli {

std::string kv_cache_terms(const OffloadReport& report, const char* batch, const char* context) {
  return fmt::format("{} × {} B × {}{} × {}{}", report.kv_per_token_terms,
                     report.dtype->bytes_per_element, report.kv_load->batch, batch,
                     report.kv_load->context, context);
}

std::string stage_name(LoadStageId id) {
  return id == LoadStageId::storage_to_host ? "storage → host" : "host → GPU";
}

std::string stage_moves(const ColdStartReport& report, const LoadStage& stage) {
  const std::string bytes = format_bytes(stage.bytes);
  const int node_gpus = report.load.gpus_on_fullest_node;
  switch (stage.share) {
  case StageShare::one_shard:
    return fmt::format("{} per GPU (its shard)", bytes);
  case StageShare::all_shards:
    return fmt::format("{} (every node's shards)", bytes);
  case StageShare::node_shards:
    break;
  }
  return fmt::format("{} (the node's {} shard{})", bytes, node_gpus, node_gpus == 1 ? "" : "s");
}

std::string stage_bandwidth(const LoadStage& stage) {
  const char* how = stage.share == StageShare::one_shard    ? "one way"
                    : stage.share == StageShare::all_shards ? "shared"
                                                            : "per node";
  return fmt::format("{} {}", format_range(stage.bandwidth), how);
}

std::string expected_bandwidth(const LoadStage& stage) {
  if (!stage.expected_bandwidth) {
    return "not measured";
  }
  if (stage.sharing > 1) {
    return fmt::format("{} (measured ÷ {} GPUs per uplink)", format_rate(*stage.expected_bandwidth),
                       stage.sharing);
  }
  return fmt::format("{} ({})", format_rate(*stage.expected_bandwidth),
                     stage.id == LoadStageId::host_to_gpu ? "measured" : "catalog");
}

std::string hbm_from(const OffloadReport& report) {
  const std::string reserve =
      report.reserve > 0 ? fmt::format(" × (1 − {} reserved)", report.reserve) : "";
  return fmt::format("{} GPU{} × {}{}", report.gpus, report.gpus == 1 ? "" : "s",
                     format_bytes(report.gpu->memory()), reserve);
}

namespace {

Derivation stage_floor(const LoadStage& stage, std::string_view which, BytesPerSecond rate,
                       Seconds time) {
  return {fmt::format("{} {}", to_string(stage.id), which),
          fmt::format("{} B / {}", format_count(stage.bytes.value()), format_rate(rate)),
          time.value(), format_seconds(time)};
}

Derivation bytes_term(std::string quantity, std::string formula, Bytes bytes) {
  return {std::move(quantity), std::move(formula), bytes.value(),
          format_count(bytes.value()) + " B"};
}

void derive_memory(const ResolvedModel& model, const OffloadReport& report, Derivations& d) {
  const Offload& r = report.result;
  d.push_back(bytes_term("weights", describe_weights(model), report.weights));
  if (report.kv_load) {
    d.push_back(
        bytes_term("KV cache", kv_cache_terms(report, " sequences", " tokens"), report.kv_cache));
    d.push_back(bytes_term("KV held",
                           fmt::format("{} B × {} ({})", format_count(report.kv_cache.value()),
                                       report.kv_copies, report.kv_copies_why),
                           r.kv_held));
  }
  d.push_back(
      bytes_term("needed",
                 fmt::format("{} B weights + {} B KV held", format_count(report.weights.value()),
                             format_count(r.kv_held.value())),
                 r.needed));
  d.push_back(bytes_term("HBM",
                         fmt::format("{} GPUs × {} × (1 − {})", report.gpus,
                                     format_bytes(report.gpu->memory()), report.reserve),
                         r.hbm));
  d.push_back(bytes_term("spilled",
                         fmt::format("max(0, {} B − {} B)", format_count(r.needed.value()),
                                     format_count(r.hbm.value())),
                         r.spilled));
}

} // namespace

Derivations coldstart_derivations(const ResolvedModel& model, const ColdStartReport& report) {
  const ColdStart& r = report.load;
  Derivations d;
  d.push_back({"weights", describe_weights(model), r.weights.value(),
               format_count(r.weights.value()) + " B"});
  d.push_back({"per GPU", fmt::format("{} B / {} GPUs", format_count(r.weights.value()), r.gpus),
               r.per_gpu.value(), format_count(r.per_gpu.value()) + " B"});
  for (const LoadStage& stage : r.stages) {
    d.push_back(stage_floor(stage, "floor", stage.bandwidth.high, stage.seconds));
    if (stage.expected_seconds) {
      d.push_back(
          stage_floor(stage, "expected", *stage.expected_bandwidth, *stage.expected_seconds));
    }
  }
  d.push_back({"floor", fmt::format("the slowest stage, {}", to_string(r.bottleneck)),
               r.floor.value(), format_seconds(r.floor)});
  if (const auto& load = report.load_time) {
    const std::string who = load->loader->id;
    d.push_back({fmt::format("{} read", who),
                 fmt::format("{} B / {} ({}-limited, {})", format_count(load->node_bytes.value()),
                             format_rate(load->read_rate), to_string(load->read_limit),
                             load->warm ? "warm" : "cold"),
                 load->read.value(), format_seconds(load->read)});
    d.push_back({fmt::format("{} load", who),
                 fmt::format("{} overhead + max({} read, {} host → GPU)",
                             format_seconds(load->loader->overhead), format_seconds(load->read),
                             format_seconds(load->copy)),
                 load->total.value(), format_seconds(load->total)});
  }
  return d;
}

namespace {

/// Each GPU's headline stream rate over `step`'s link when a shared uplink or DRAM binds.
Derivation stream_derivation(const OffloadReport& report, const HostLinkStep& step) {
  const StreamRate& s = step.stream;
  const std::string shared =
      s.limit == StreamLimit::uplink
          ? fmt::format("{} / {} GPUs behind one uplink", format_rate(step.bandwidth), s.sharing)
          : fmt::format("{} host DRAM / {} GPUs on the node",
                        format_rate(report.system->host->dram_bandwidth), s.sharing);
  return {fmt::format("per-GPU stream over {}", step.link->id), shared, s.rate.value(),
          format_rate(s.rate)};
}

} // namespace

Derivations offload_derivations(const ResolvedModel& model, const OffloadReport& report) {
  const Offload& r = report.result;
  Derivations d;
  derive_memory(model, report, d);
  const std::string hbm_rate = format_rate(report.gpu->hbm_bandwidth * r.hbm_fraction);
  d.push_back(
      {"step, all in HBM",
       fmt::format("{} B / ({} × {})", format_count(r.needed.value()), report.gpus, hbm_rate),
       r.step_all_hbm.value(), format_seconds(r.step_all_hbm)});
  // vllm: the copy follows the HBM reads; prefetch: the longer of the two bounds the step.
  const char* form = r.engine == OffloadEngine::prefetch ? "max({} B / ({} × {}), {} B / ({} × {}))"
                                                         : "{} B / ({} × {}) + {} B / ({} × {})";
  for (const HostLinkStep& step : r.links) {
    if (step.stream.limit != StreamLimit::link) {
      d.push_back(stream_derivation(report, step));
    }
    d.push_back(
        {fmt::format("step over {}", step.link->id),
         fmt::format(fmt::runtime(form), format_count(r.resident.value()), report.gpus, hbm_rate,
                     format_count(r.spilled.value()), report.gpus, format_rate(step.stream.rate)),
         step.step.value(), format_seconds(step.step)});
    d.push_back({fmt::format("slowdown over {}", step.link->id),
                 fmt::format("{} / {}", format_seconds(step.step), format_seconds(r.step_all_hbm)),
                 step.slowdown, format_ratio(step.slowdown)});
  }
  return d;
}

} // namespace icx::cli
