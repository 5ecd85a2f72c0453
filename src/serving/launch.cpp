#include "icx/serving/launch.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "icx/util/input_error.hpp"

namespace icx {

namespace {

/// The port the first node of an SGLang server over several nodes listens on for the others
/// (--dist-init-addr HOST:PORT): any free one; its multi-node guide uses a port of the
/// user's choosing.
constexpr std::string_view sglang_init_port = "5000";

/// The dtype id of FP8 in the catalog, the one narrower KV cache and weights format every
/// engine here names on its command line.
constexpr std::string_view fp8 = "fp8";

/// "fp8: id, bf16: id" for an error that lists what the catalog has.
std::string checkpoint_list(const Model& model) {
  std::string out;
  for (const auto& [dtype, id] : model.checkpoints) {
    out += fmt::format("{}{} ({})", out.empty() ? "" : ", ", dtype, id);
  }
  return out;
}

/// The checkpoint that serves the weights' dtype; FP8 weights from the model's 16-bit
/// checkpoint when the engine quantizes on load (vLLM's and SGLang's --quantization fp8),
/// which the return value says.
bool choose_checkpoint(const LaunchRequest& r, LaunchCommand& c) {
  const Model& model = *r.model;
  const std::string prefix = fmt::format("--emit {}", r.engine->id);
  if (model.checkpoints.empty()) {
    throw InputError(fmt::format("{}: model '{}' has no published checkpoint in the catalog; "
                                 "name a catalog model, or --hf-config DIR/config.json to serve "
                                 "the checkpoint in DIR",
                                 prefix, model.id));
  }
  if (const auto it = model.checkpoints.find(r.weights->id); it != model.checkpoints.end()) {
    c.checkpoint = it->second;
    return false;
  }
  const auto source = model.checkpoints.find(model.default_dtype);
  if (r.weights->id == fp8 && c.style != LaunchStyle::trtllm && source != model.checkpoints.end()) {
    c.checkpoint = source->second;
    return true;
  }
  std::string dtypes;
  for (const auto& [dtype, id] : model.checkpoints) {
    dtypes += fmt::format("{}{}", dtypes.empty() ? "" : " or ", dtype);
  }
  throw InputError(fmt::format("{}: the catalog has no {} checkpoint of '{}' that {} serves "
                               "(it has {}); give --dtype {}",
                               prefix, r.weights->id, model.id, r.engine->id,
                               checkpoint_list(model), dtypes));
}

/// The engine's name for the KV cache dtype: none when it is the activations' (the engines'
/// "auto"), FP8 in each engine's spelling.
std::optional<std::string> kv_cache_value(const LaunchRequest& r, LaunchStyle style) {
  const Dtype& kv = *r.workload->kv_dtype;
  if (kv.id == r.workload->act_dtype->id) {
    return std::nullopt;
  }
  if (kv.id != fp8) {
    throw InputError(fmt::format("--emit {}: the engine's flags keep the KV cache in {} or in "
                                 "the activations' {}, not in {}; give --kv-dtype {}, or drop "
                                 "--kv-dtype",
                                 r.engine->id, fp8, r.workload->act_dtype->id, kv.id, fp8));
  }
  // SGLang names the FP8 format; vLLM's "fp8" and TensorRT-LLM's are E4M3 on NVIDIA GPUs.
  return style == LaunchStyle::sglang ? "fp8_e4m3" : std::string(fp8);
}

void add(LaunchCommand& c, std::string flag, std::int64_t value, LaunchWhy why) {
  c.args.push_back({std::move(flag), std::to_string(value), why, {}});
}

/// The GPUs of one expert group (a pipeline stage of a replica).
std::int64_t group_gpus(const Layout& l) {
  return static_cast<std::int64_t>(l.tp) * l.ep;
}

void add_switch(LaunchCommand& c, std::string flag, LaunchWhy why) {
  c.args.push_back({std::move(flag), {}, why, {}});
}

/// vLLM: an MoE model's expert group is -dp ranks of -tp GPUs with experts spread over all of
/// them; one server per replica, on Ray across nodes.
void vllm_args(const LaunchRequest& r, LaunchCommand& c) {
  const Layout& l = r.layout;
  c.program = "vllm serve";
  add(c, "--tensor-parallel-size", l.tp, LaunchWhy::tensor);
  if (l.pp > 1) {
    add(c, "--pipeline-parallel-size", l.pp, LaunchWhy::pipeline);
  }
  if (l.ep > 1) {
    add(c, "--data-parallel-size", l.ep, LaunchWhy::attention_ranks);
    c.caveats.push_back(LaunchCaveat::default_all_to_all);
  }
  if (l.expert_ranks() > 1) {
    add_switch(c, "--enable-expert-parallel", LaunchWhy::expert_parallel);
  }
  add(c, "--max-num-seqs", r.workload->max_batch, LaunchWhy::max_batch);
  add(c, "--max-num-batched-tokens", r.prefill_chunk, LaunchWhy::token_budget);
  if (const auto kv = kv_cache_value(r, c.style)) {
    c.args.push_back({"--kv-cache-dtype", *kv, LaunchWhy::kv_dtype, {}});
  }
  if (c.nodes_per_server > 1) {
    c.args.push_back({"--distributed-executor-backend", "ray", LaunchWhy::multi_node, {}});
  }
}

/// SGLang: --tp-size counts the whole expert group, whose --dp-size ranks run attention apart;
/// the request and token limits are over all of them.
void sglang_args(const LaunchRequest& r, LaunchCommand& c) {
  const Layout& l = r.layout;
  c.program = "python -m sglang.launch_server";
  c.checkpoint_flag = "--model-path";
  add(c, "--tp-size", group_gpus(l), l.ep > 1 ? LaunchWhy::group_tensor : LaunchWhy::tensor);
  if (l.pp > 1) {
    add(c, "--pp-size", l.pp, LaunchWhy::pipeline);
  }
  if (l.ep > 1) {
    add(c, "--dp-size", l.ep, LaunchWhy::attention_ranks);
    add_switch(c, "--enable-dp-attention", LaunchWhy::attention_dp);
    add(c, "--ep-size", group_gpus(l), LaunchWhy::expert_parallel);
    c.args.push_back({"--moe-a2a-backend", "deepep", LaunchWhy::expert_kernels, {}});
  } else if (l.expert_ranks() > 1) {
    add(c, "--ep-size", l.expert_ranks(), LaunchWhy::expert_parallel);
  }
  add(c, "--max-running-requests", r.workload->max_batch * l.ep, LaunchWhy::max_batch);
  add(c, "--chunked-prefill-size", r.prefill_chunk * l.ep, LaunchWhy::token_budget);
  if (const auto kv = kv_cache_value(r, c.style)) {
    c.args.push_back({"--kv-cache-dtype", *kv, LaunchWhy::kv_dtype, {}});
  }
  if (c.nodes_per_server > 1) {
    add(c, "--nnodes", c.nodes_per_server, LaunchWhy::multi_node);
    c.args.push_back({"--node-rank", "$NODE_RANK", LaunchWhy::node_rank, {}});
    c.args.push_back({"--dist-init-addr",
                      fmt::format("$FIRST_NODE:{}", sglang_init_port),
                      LaunchWhy::first_node,
                      {}});
  }
}

/// TensorRT-LLM: --tp_size counts the whole expert group, --ep_size of it holds experts apart
/// (the rest split them tensor-parallel); attention DP and the KV dtype in the options file.
void trtllm_args(const LaunchRequest& r, LaunchCommand& c) {
  const Layout& l = r.layout;
  c.program = "trtllm-serve";
  add(c, "--tp_size", group_gpus(l), l.ep > 1 ? LaunchWhy::group_tensor : LaunchWhy::tensor);
  if (l.pp > 1) {
    add(c, "--pp_size", l.pp, LaunchWhy::pipeline);
  }
  // With attention DP every GPU of the group schedules its own sequences.
  const int schedulers_per_rank = l.ep > 1 ? l.tp : 1;
  if (l.expert_ranks() > 1) {
    add(c, "--ep_size", l.expert_ranks(), LaunchWhy::expert_parallel);
  }
  if (l.ep > 1) {
    c.settings.push_back({"enable_attention_dp", "true", LaunchWhy::attention_dp, {}});
  }
  add(c, "--max_batch_size", ceil_div(r.workload->max_batch, schedulers_per_rank),
      LaunchWhy::max_batch);
  add(c, "--max_num_tokens", ceil_div(r.prefill_chunk, schedulers_per_rank),
      LaunchWhy::token_budget);
  if (const auto kv = kv_cache_value(r, c.style)) {
    c.settings.push_back({"kv_cache_config.dtype", *kv, LaunchWhy::kv_dtype, {}});
  }
}

/// Speculative decoding as icx priced it (--spec): MTP from the model's own layers, or an
/// EAGLE head from DRAFT_MODEL; `drafts` a step, one chain of them (no tree).
void spec_args(const Speculation& spec, LaunchCommand& c) {
  const bool eagle = spec.kind == "eagle";
  const std::string draft = fmt::format("${}", draft_model_variable);
  const std::int64_t drafts = spec.draft_tokens;
  switch (c.style) {
  case LaunchStyle::vllm:
    c.args.push_back(
        {"--speculative-config",
         eagle ? fmt::format(R"({{"method":"eagle3","model":"{}","num_speculative_tokens":{}}})",
                             draft, drafts)
               : fmt::format(R"({{"method":"mtp","num_speculative_tokens":{}}})", drafts),
         LaunchWhy::speculation,
         {}});
    break;
  case LaunchStyle::sglang:
    c.args.push_back(
        {"--speculative-algorithm", eagle ? "EAGLE3" : "EAGLE", LaunchWhy::speculation, {}});
    if (eagle) {
      c.args.push_back({"--speculative-draft-model-path", draft, LaunchWhy::draft_model, {}});
    }
    add(c, "--speculative-num-steps", drafts, LaunchWhy::speculation);
    add(c, "--speculative-eagle-topk", 1, LaunchWhy::draft_chain);
    add(c, "--speculative-num-draft-tokens", drafts + 1, LaunchWhy::draft_chain);
    break;
  case LaunchStyle::trtllm:
    c.settings.push_back(
        {"speculative_config.decoding_type", eagle ? "Eagle" : "MTP", LaunchWhy::speculation, {}});
    c.settings.push_back(
        {eagle ? "speculative_config.max_draft_len" : "speculative_config.num_nextn_predict_layers",
         std::to_string(drafts),
         LaunchWhy::speculation,
         {}});
    if (eagle) {
      c.settings.push_back(
          {"speculative_config.speculative_model_dir", draft, LaunchWhy::draft_model, {}});
    }
    break;
  }
  if (eagle) {
    c.caveats.push_back(LaunchCaveat::draft_checkpoint);
  }
}

} // namespace

LaunchCommand launch_command(const LaunchRequest& r) {
  if (!r.engine->launch) {
    throw InputError(fmt::format("--emit {}: the catalog gives no launch style for engine '{}' "
                                 "(its \"launch\"); give --emit vllm, sglang or trtllm",
                                 r.engine->id, r.engine->id));
  }
  LaunchCommand c;
  c.engine = r.engine;
  c.style = r.engine->launch->style;
  c.layout = r.layout;
  const Layout& l = r.layout;
  c.servers = l.dp;
  c.gpus_per_server = l.tp * l.ep * l.pp;
  const int per_node = r.cluster->gpus_per_node;
  c.nodes_per_server = static_cast<int>(ceil_div(c.gpus_per_server, per_node));
  c.servers_per_node = c.nodes_per_server > 1 ? 1 : std::min(l.dp, per_node / c.gpus_per_server);
  const bool quantize_on_load = choose_checkpoint(r, c);
  switch (c.style) {
  case LaunchStyle::vllm:
    vllm_args(r, c);
    break;
  case LaunchStyle::sglang:
    sglang_args(r, c);
    break;
  case LaunchStyle::trtllm:
    trtllm_args(r, c);
    break;
  }
  if (r.workload->spec) {
    spec_args(*r.workload->spec, c);
  }
  if (!c.settings.empty()) {
    c.args.push_back(
        {"--extra_llm_api_options", std::string(launch_options_file), LaunchWhy::options_file, {}});
  }
  if (quantize_on_load) {
    c.args.push_back({"--quantization", std::string(fp8), LaunchWhy::quantization, {}});
  }
  if (l.ep > 1 && l.tp > 1 && c.style == LaunchStyle::trtllm) {
    c.caveats.push_back(LaunchCaveat::attention_without_tensor);
  }
  // vLLM's expert parallelism, and SGLang's beside data-parallel attention, hold each expert
  // whole across the group; TensorRT-LLM and SGLang otherwise split them as icx priced.
  const bool whole_only =
      c.style == LaunchStyle::vllm || (c.style == LaunchStyle::sglang && l.ep > 1);
  if (whole_only && l.expert_tp() > 1 && l.expert_ranks() > 1) {
    c.caveats.push_back(LaunchCaveat::experts_over_group);
  }
  return c;
}

namespace {

Json args_json(const std::vector<LaunchArg>& args, const char* name) {
  Json out = Json::array();
  for (const LaunchArg& arg : args) {
    out.push_back({{name, arg.flag},
                   {"value", arg.value.empty() ? Json(nullptr) : Json(arg.value)},
                   {"why", arg.reason}});
  }
  return out;
}

} // namespace

void to_json(Json& json, const LaunchCommand& c) {
  json = Json::object();
  json["engine"] = c.engine->id;
  json["version"] = c.engine->version;
  json["checkpoint"] = c.checkpoint;
  json["servers"] = c.servers;
  json["gpus_per_server"] = c.gpus_per_server;
  json["nodes_per_server"] = c.nodes_per_server;
  json["servers_per_node"] = c.servers_per_node;
  json["args"] = args_json(c.args, "flag");
  if (!c.settings.empty()) {
    json["options_file"] = {{"path", launch_options_file},
                            {"settings", args_json(c.settings, "key")}};
  }
  json["notes"] = c.notes;
  json["script"] = c.script;
}

} // namespace icx
