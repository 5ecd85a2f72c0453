// Which GPU groups can exist: the tensor-parallel group sizes a model allows, the links a
// GPU has, and how many GPUs one domain of a link joins. Each check passes, or fails with why
// a group is impossible (one sentence naming the catalog field that says so); commands turn
// the reason into an error naming their flag.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "icx/base/expected.hpp"
#include "icx/catalog/catalog.hpp"

namespace icx {

/// Smallest group a collective needs.
constexpr int min_collective_gpus = 2;

/// What sets the tensor-parallel group sizes a model allows.
struct AttentionShape {
  /// Query heads; 0 when unknown (a custom model), which allows any size.
  int attention_heads = 0;
  /// KV heads; 0 when unknown.
  int kv_heads = 0;
  /// Multi-head latent attention: keys and values come from one latent per token shared by
  /// every head, so KV heads do not constrain the split.
  bool latent = false;
  /// The model's id (a Hugging Face config's path), for messages; it views the Model's id.
  std::string_view model_id;
  /// Whether the model was read from a Hugging Face config: messages then say "config <path>"
  /// rather than "catalog model '<id>'".
  bool from_config = false;
};

AttentionShape attention_shape(const Model& model);

/// How messages name the model: "catalog model '70b'" or "config <path>".
std::string model_words(const AttentionShape& shape);

/// Whether a tensor-parallel group of `size` GPUs can split the model's attention: the rule
/// check_tensor_group explains.
bool tensor_group_allowed(const AttentionShape& shape, int size);

/// Every group size from `from` up to the attention heads that tensor_group_allowed accepts,
/// ascending (empty when the heads are unknown).
std::vector<int> allowed_group_sizes(const AttentionShape& shape, int from = 1);

/// Whether a tensor-parallel group of `size` GPUs can split the model's attention, and if not
/// why (a group of 1 is no split and always possible). Each GPU holds whole query heads, so
/// `size` divides the attention heads; KV heads are split (`size` divides them) or, past
/// their count, replicated (their count divides `size`), as vLLM, SGLang and TensorRT-LLM
/// do.
Check check_tensor_group(const AttentionShape& shape, int size);

/// As check_tensor_group, for a group whose all-reduce is being costed: that needs at
/// least two GPUs.
Check check_tensor_allreduce(const AttentionShape& shape, int size);

/// Whether `link` is `id` (its id or an alias, case-insensitively).
bool link_is(const Link& link, std::string_view id);

/// Whether `gpu` can use `link` between its GPUs; it cannot use a scale-up link other than the
/// GPU's own (catalog scale_up_link). Host and scale-out links suit any GPU.
Check check_gpu_link(const Gpu& gpu, const Link& link);

/// Whether `gpus` GPUs can form one domain of `link`: not more than the link's
/// max_domain_gpus.
Check check_domain_size(const Link& link, int gpus);

/// Whether collectives may run on `link` at all: not on a link that joins a CPU and a GPU
/// (catalog gpu_to_gpu false, NVLink-C2C), which only host transfers use.
Check check_collective_wire(const Link& link);

/// Whether a group can communicate over `link`: fails when the link does not join GPUs
/// (check_collective_wire), `gpu` (when given) lacks it (check_gpu_link), or `gpus` (when
/// given) exceed its domain (check_domain_size).
Check check_group_link(const Gpu* gpu, std::optional<int> gpus, const Link& link);

/// Whether `link` can join the nodes of a cluster of `gpus` GPUs whose scale-up domains hold
/// `domain` GPUs (`domain_from` names the catalog entry that says so). Separate
/// domains are joined only by a scale-out link; a scale-up or host link may join nodes only
/// when every GPU lies in one domain (GB200 NVL72: 18 trays, each its own OS node, in one
/// 72-GPU NVLink domain). `links` gives the scale-out links to suggest.
Check check_scale_out(const Link& link, int gpus, int domain, std::string_view domain_from,
                      std::span<const Link> links);

/// Whether `gpus` GPUs fill whole nodes of `gpus_per_node`, or lie in part of one node: a
/// cluster never has a partly filled node beside full ones.
Check check_whole_nodes(int gpus, int gpus_per_node);

/// Nodes that `gpus` GPUs fill at `gpus_per_node` each (1 for a part of one node). Throws
/// InputError on a count below 1, or a count that is not whole nodes (check_whole_nodes).
int node_count(int gpus, int gpus_per_node);

} // namespace icx
