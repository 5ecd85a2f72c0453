#include "icx/catalog/group_rules.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "icx/base/error.hpp"
#include "icx/util/spelling.hpp"

namespace icx {

namespace {

bool divides_query_heads(const AttentionShape& shape, int size) {
  return shape.attention_heads < 1 || shape.attention_heads % size == 0;
}

bool splits_or_replicates_kv_heads(const AttentionShape& shape, int size) {
  return shape.latent || shape.kv_heads < 1 || shape.kv_heads % size == 0 ||
         size % shape.kv_heads == 0;
}

std::string size_hint(const AttentionShape& shape, int from) {
  const std::vector<int> sizes = allowed_group_sizes(shape, from);
  return sizes.empty() ? std::string("no tensor-parallel group fits this model")
                       : fmt::format("use one of {}", fmt::join(sizes, ", "));
}

Check check_divisibility(const AttentionShape& shape, int size, int from) {
  if (!divides_query_heads(shape, size)) {
    return unexpected(
        fmt::format("a tensor-parallel group of {} GPUs does not divide the {} attention "
                    "heads of {} (attention_heads); {}",
                    size, shape.attention_heads, model_words(shape), size_hint(shape, from)));
  }
  if (!splits_or_replicates_kv_heads(shape, size)) {
    return unexpected(
        fmt::format("a tensor-parallel group of {} GPUs neither divides the {} KV heads of "
                    "{} (kv_heads) nor replicates them whole; {}",
                    size, shape.kv_heads, model_words(shape), size_hint(shape, from)));
  }
  return {};
}

} // namespace

bool tensor_group_allowed(const AttentionShape& shape, int size) {
  return size >= 1 && divides_query_heads(shape, size) &&
         splits_or_replicates_kv_heads(shape, size);
}

std::vector<int> allowed_group_sizes(const AttentionShape& shape, int from) {
  std::vector<int> sizes;
  for (int size = std::max(from, 1); size <= shape.attention_heads; ++size) {
    if (tensor_group_allowed(shape, size)) {
      sizes.push_back(size);
    }
  }
  return sizes;
}

std::string model_words(const AttentionShape& shape) {
  return shape.from_config ? fmt::format("config {}", shape.model_id)
                           : fmt::format("catalog model '{}'", shape.model_id);
}

AttentionShape attention_shape(const Model& model) {
  AttentionShape shape;
  shape.attention_heads = model.attention_heads;
  shape.kv_heads = model.kv_heads;
  shape.latent = model.latent_attention.has_value();
  shape.model_id = model.id;
  // A Hugging Face config is read with its path as the model's id and origin.
  shape.from_config = model.origin == model.id;
  return shape;
}

Check check_tensor_group(const AttentionShape& shape, int size) {
  if (size < 1) {
    return unexpected(fmt::format("a group of {} GPUs is empty; at least one GPU is needed", size));
  }
  return check_divisibility(shape, size, 1);
}

Check check_tensor_allreduce(const AttentionShape& shape, int size) {
  if (size < min_collective_gpus) {
    return unexpected(
        fmt::format("a tensor-parallel group needs at least {} GPUs; {} GPU has no all-reduce",
                    min_collective_gpus, size));
  }
  return check_divisibility(shape, size, min_collective_gpus);
}

bool link_is(const Link& link, std::string_view id) {
  const std::string folded = fold_case(id);
  return fold_case(link.id) == folded ||
         std::ranges::any_of(link.aliases,
                             [&](const std::string& alias) { return fold_case(alias) == folded; });
}

Check check_gpu_link(const Gpu& gpu, const Link& link) {
  if (link.tier != Tier::scale_up || link_is(link, gpu.scale_up_link)) {
    return {};
  }
  return unexpected(fmt::format("{} has no {} link: its scale-up link is {} (catalog gpu '{}', "
                                "scale_up_link); use {} or a host or scale-out link",
                                gpu.id, link.id, gpu.scale_up_link, gpu.id, gpu.scale_up_link));
}

Check check_domain_size(const Link& link, int gpus) {
  if (!link.max_domain_gpus || gpus <= *link.max_domain_gpus) {
    return {};
  }
  return unexpected(fmt::format("{} connects at most {} GPUs in one domain (catalog link '{}', "
                                "max_domain_gpus)",
                                link.id, *link.max_domain_gpus, link.id));
}

Check check_collective_wire(const Link& link) {
  if (link.gpu_to_gpu) {
    return {};
  }
  return unexpected(fmt::format("{} joins {} (catalog link '{}', gpu_to_gpu false): it is a "
                                "host link, not a wire between GPUs; give a scale-up, PCIe or "
                                "scale-out link ('icx links')",
                                link.id, link.connects, link.id));
}

Check check_group_link(const Gpu* gpu, std::optional<int> gpus, const Link& link) {
  if (Check wire = check_collective_wire(link); !wire) {
    return wire;
  }
  if (gpu != nullptr) {
    if (Check check = check_gpu_link(*gpu, link); !check) {
      return check;
    }
  }
  return gpus ? check_domain_size(link, *gpus) : Check();
}

Check check_scale_out(const Link& link, int gpus, int domain, std::string_view domain_from,
                      std::span<const Link> links) {
  if (link.tier == Tier::scale_out || gpus <= domain) {
    return {};
  }
  std::vector<std::string> scale_out;
  for (const Link& candidate : links) {
    if (candidate.tier == Tier::scale_out) {
      scale_out.push_back(candidate.id);
    }
  }
  return unexpected(fmt::format(
      "{} is a {} link: it joins nodes only inside one scale-up domain, and {} "
      "GPUs exceed the {}-GPU domain ({}, scale_up_domain); between domains use "
      "a scale-out link: {}",
      link.id, to_string(link.tier), gpus, domain, domain_from, fmt::join(scale_out, ", ")));
}

Check check_whole_nodes(int gpus, int gpus_per_node) {
  if (gpus <= gpus_per_node || gpus % gpus_per_node == 0) {
    return {};
  }
  return unexpected(
      fmt::format("{} GPUs are not a whole number of {}-GPU nodes", gpus, gpus_per_node));
}

int node_count(int gpus, int gpus_per_node) {
  if (gpus < 1 || gpus_per_node < 1) {
    throw InputError("a node count needs at least one GPU, and at least one GPU per node");
  }
  if (const Check whole = check_whole_nodes(gpus, gpus_per_node); !whole) {
    throw InputError(whole.reason());
  }
  return (gpus + gpus_per_node - 1) / gpus_per_node;
}

} // namespace icx
