// The settings a user can change that the core names in a reason, an assumption or an error
// ("raise the maximum node count", "none hidden (overlap)"). The core names a knob, never a
// flag: the front end hands over how its users spell each one (the CLI: its flag table), and
// every sentence that names a knob writes that spelling.
#pragma once

#include <array>
#include <span>
#include <string_view>

#include <fmt/format.h>

#include "icx/base/enum_names.hpp"

namespace icx {

enum class Knob {
  act_dtype,
  algo,
  arrivals,
  batch,
  catalog,
  combine_dtype,
  concurrency,
  disaggregate,
  dispatch_dtype,
  domain,
  engine,
  ep_mode,
  fast,
  gpu,
  gpus,
  gpus_per_node,
  hbm_fraction,
  hf_config,
  impl,
  input,
  kv_dtype,
  lengths,
  max_batch,
  max_nodes,
  max_nodes_per_token,
  mfu,
  mode,
  model,
  nics_per_node,
  objective,
  output,
  output_file,
  overlap,
  params,
  pcie,
  pcie_topology,
  prefill_chunk,
  prefix_hit,
  price,
  rate,
  redundant_experts,
  requests,
  scale_out,
  seed,
  skew,
  spec,
  spread,
  system,
  tokens_per_gpu,
  ttft,
  tuning,
  warm_prompts,
  warmup,
};

/// A knob's own name: what a sentence writes when no front end has handed its spelling over.
constexpr std::array<EnumName<Knob>, 53> enum_names(Knob /*unused*/) {
  return {{{Knob::act_dtype, "act-dtype"},
           {Knob::algo, "algo"},
           {Knob::arrivals, "arrivals"},
           {Knob::batch, "batch"},
           {Knob::catalog, "catalog"},
           {Knob::combine_dtype, "combine-dtype"},
           {Knob::concurrency, "concurrency"},
           {Knob::disaggregate, "disaggregate"},
           {Knob::dispatch_dtype, "dispatch-dtype"},
           {Knob::domain, "domain"},
           {Knob::engine, "engine"},
           {Knob::ep_mode, "ep-mode"},
           {Knob::fast, "fast"},
           {Knob::gpu, "gpu"},
           {Knob::gpus, "gpus"},
           {Knob::gpus_per_node, "gpus-per-node"},
           {Knob::hbm_fraction, "hbm-fraction"},
           {Knob::hf_config, "hf-config"},
           {Knob::impl, "impl"},
           {Knob::input, "input"},
           {Knob::kv_dtype, "kv-dtype"},
           {Knob::lengths, "lengths"},
           {Knob::max_batch, "max-batch"},
           {Knob::max_nodes, "max-nodes"},
           {Knob::max_nodes_per_token, "max-nodes-per-token"},
           {Knob::mfu, "mfu"},
           {Knob::mode, "mode"},
           {Knob::model, "model"},
           {Knob::nics_per_node, "nics-per-node"},
           {Knob::objective, "objective"},
           {Knob::output, "output"},
           {Knob::output_file, "output-file"},
           {Knob::overlap, "overlap"},
           {Knob::params, "params"},
           {Knob::pcie, "pcie"},
           {Knob::pcie_topology, "pcie-topology"},
           {Knob::prefill_chunk, "prefill-chunk"},
           {Knob::prefix_hit, "prefix-hit"},
           {Knob::price, "price"},
           {Knob::rate, "rate"},
           {Knob::redundant_experts, "redundant-experts"},
           {Knob::requests, "requests"},
           {Knob::scale_out, "scale-out"},
           {Knob::seed, "seed"},
           {Knob::skew, "skew"},
           {Knob::spec, "spec"},
           {Knob::spread, "spread"},
           {Knob::system, "system"},
           {Knob::tokens_per_gpu, "tokens-per-gpu"},
           {Knob::ttft, "ttft"},
           {Knob::tuning, "tuning"},
           {Knob::warm_prompts, "warm-prompts"},
           {Knob::warmup, "warmup"}}};
}

/// How a front end spells its knobs; a knob it leaves out is written by its own name.
void use_knob_spellings(std::span<const EnumName<Knob>> spellings);

/// The spelling handed over for `knob` ("--max-nodes" from the CLI), else its own name.
std::string_view spelled(Knob knob);

} // namespace icx

/// Writes a knob as the front end spells it: fmt::format("raise {}", Knob::max_nodes).
template <> struct fmt::formatter<icx::Knob> : fmt::formatter<std::string_view> {
  template <class Context> auto format(icx::Knob knob, Context& ctx) const {
    return fmt::formatter<std::string_view>::format(icx::spelled(knob), ctx);
  }
};
