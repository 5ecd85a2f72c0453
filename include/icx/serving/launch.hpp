// The command that starts a serving engine on a chosen layout: the checkpoint it loads, the
// layout's degrees in the engine's own flags, its scheduler's limits and KV cache dtype, and
// how many servers run on how many nodes. Facts only: why each flag has its value, the
// caveats and the shell text are the words layer's (icx/words/launch.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "icx/base/json_values.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/serving/placement.hpp"
#include "icx/serving/step_model.hpp"

namespace icx {

/// The file TensorRT-LLM's extra options are written to beside its command.
constexpr std::string_view launch_options_file = "icx-trtllm.yaml";

/// Why a launch flag or setting has its value.
enum class LaunchWhy {
  /// The layout's tensor degree.
  tensor,
  /// The tensor degree over the whole expert group (tp × ep), as SGLang and TensorRT-LLM count
  /// an attention-data-parallel group.
  group_tensor,
  pipeline,
  /// The expert group's ranks, each running attention for its own sequences.
  attention_ranks,
  /// The switch that makes those ranks run attention apart.
  attention_dp,
  expert_parallel,
  /// DeepEP's kernels, the dispatch and combine icx priced.
  expert_kernels,
  max_batch,
  token_budget,
  kv_dtype,
  /// FP8 weights quantized on load from the 16-bit checkpoint.
  quantization,
  /// Joins the nodes one server spans.
  multi_node,
  /// This node's place among them.
  node_rank,
  /// The address where they meet.
  first_node,
  /// Reads the settings of the options file.
  options_file,
  /// Speculative decoding: the method and its drafts a step (--spec).
  speculation,
  /// One chain of drafts, no tree, as icx priced them.
  draft_chain,
  /// The draft's own checkpoint (EAGLE), which icx does not know.
  draft_model,
};

struct LaunchArg {
  std::string flag;
  /// Empty for a switch.
  std::string value;
  LaunchWhy why = LaunchWhy::tensor;
  /// Written by the words layer (write_launch_words).
  std::string reason;
};

/// Where the engine runs the layout otherwise than icx priced it.
enum class LaunchCaveat {
  /// The engine holds the experts whole over all tp × ep GPUs of the group; icx priced each
  /// split expert_tp() ways over expert_ranks() ranks (same GPUs and bytes, other collectives).
  experts_over_group,
  /// TensorRT-LLM's attention data parallelism gives every GPU of the group its own attention;
  /// icx priced ep ranks of tp GPUs.
  attention_without_tensor,
  /// The engine's default all-to-all runs the expert dispatch; icx priced DeepEP's kernels.
  default_all_to_all,
  /// EAGLE drafts with a checkpoint of its own, left to the user (DRAFT_MODEL).
  draft_checkpoint,
};

/// The shell variable a launch command reads the EAGLE draft's checkpoint from.
constexpr std::string_view draft_model_variable = "DRAFT_MODEL";

struct LaunchCommand {
  const Engine* engine = nullptr;
  LaunchStyle style = LaunchStyle::vllm;
  /// What runs: "vllm serve", "python -m sglang.launch_server", "trtllm-serve".
  std::string program;
  /// The flag the checkpoint follows; empty: it is positional.
  std::string checkpoint_flag;
  std::string checkpoint;
  std::vector<LaunchArg> args;
  /// Keys of the options file (launch_options_file), a dot for each nested level.
  std::vector<LaunchArg> settings;
  Layout layout;
  /// One server per replica.
  int servers = 1;
  int gpus_per_server = 1;
  int nodes_per_server = 1;
  /// Servers sharing one node, each on its own GPUs (1 when a server spans nodes).
  int servers_per_node = 1;
  std::vector<LaunchCaveat> caveats;
  /// Written by the words layer: the caveats' sentences and the whole shell text.
  std::vector<std::string> notes;
  std::string script;
};

struct LaunchRequest {
  const Engine* engine = nullptr;
  const Model* model = nullptr;
  /// The weights' dtype the layout was priced with.
  const Dtype* weights = nullptr;
  /// The resolved step settings: KV cache and activation dtypes, sequences per scheduler.
  const Workload* workload = nullptr;
  Layout layout;
  const Cluster* cluster = nullptr;
  /// Prompt tokens one step of a scheduler takes.
  std::int64_t prefill_chunk = 0;
};

/// The command that serves `request.layout` as it was priced. Throws InputError naming
/// --emit when the engine has no launch style in the catalog, the model no checkpoint in the
/// weights' dtype (FP8 may be quantized on load from a 16-bit one by vLLM and SGLang), or the
/// KV cache dtype is neither the activations' nor FP8.
LaunchCommand launch_command(const LaunchRequest& request);

/// engine, version, checkpoint, servers and their GPUs and nodes, args[] (flag, value: null for
/// a switch, why), options_file (path, settings[]) when there is one, notes[] and script.
void to_json(Json& json, const LaunchCommand& command);

} // namespace icx
