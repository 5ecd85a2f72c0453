#include "options/flags.hpp"

#include <array>

namespace icx::cli {

namespace {

constexpr std::array<EnumName<Knob>, 53> flags{{
    {Knob::act_dtype, "--act-dtype"},
    {Knob::algo, "--algo"},
    {Knob::arrivals, "--arrivals"},
    {Knob::batch, "--batch"},
    {Knob::catalog, "--catalog"},
    {Knob::combine_dtype, "--combine-dtype"},
    {Knob::concurrency, "--concurrency"},
    {Knob::disaggregate, "--disaggregate"},
    {Knob::dispatch_dtype, "--dispatch-dtype"},
    {Knob::domain, "--domain"},
    {Knob::engine, "--engine"},
    {Knob::ep_mode, "--ep-mode"},
    {Knob::fast, "--fast"},
    {Knob::gpu, "--gpu"},
    {Knob::gpus, "--gpus"},
    {Knob::gpus_per_node, "--gpus-per-node"},
    {Knob::hbm_fraction, "--hbm-fraction"},
    {Knob::hf_config, "--hf-config"},
    {Knob::impl, "--impl"},
    {Knob::input, "--input"},
    {Knob::kv_dtype, "--kv-dtype"},
    {Knob::lengths, "--lengths"},
    {Knob::max_batch, "--max-batch"},
    {Knob::max_nodes, "--max-nodes"},
    {Knob::max_nodes_per_token, "--max-nodes-per-token"},
    {Knob::mfu, "--mfu"},
    {Knob::mode, "--mode"},
    {Knob::model, "--model"},
    {Knob::nics_per_node, "--nics-per-node"},
    {Knob::objective, "--objective"},
    {Knob::output, "--output"},
    {Knob::output_file, "-o"},
    {Knob::overlap, "--overlap"},
    {Knob::params, "--params"},
    {Knob::pcie, "--pcie"},
    {Knob::pcie_topology, "--pcie-topology"},
    {Knob::prefill_chunk, "--prefill-chunk"},
    {Knob::prefix_hit, "--prefix-hit"},
    {Knob::price, "--price"},
    {Knob::rate, "--rate"},
    {Knob::redundant_experts, "--redundant-experts"},
    {Knob::requests, "--requests"},
    {Knob::scale_out, "--scale-out"},
    {Knob::seed, "--seed"},
    {Knob::skew, "--skew"},
    {Knob::spec, "--spec"},
    {Knob::spread, "--spread"},
    {Knob::system, "--system"},
    {Knob::tokens_per_gpu, "--tokens-per-gpu"},
    {Knob::ttft, "--ttft"},
    {Knob::tuning, "--tuning"},
    {Knob::warm_prompts, "--warm-prompts"},
    {Knob::warmup, "--warmup"},
}};

} // namespace

std::span<const EnumName<Knob>> flag_spellings() {
  return flags;
}

} // namespace icx::cli
