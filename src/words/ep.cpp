#include "icx/words/ep.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "icx/base/knob.hpp"
#include "icx/base/units_format.hpp"

namespace icx {

namespace {

/// hidden · bytes per element, plus one scale per block for a one-byte dtype (ep_token_bytes).
std::string token_formula(const EpRequest& r, const Dtype& dtype) {
  std::string elements =
      fmt::format("{} × {} B ({})", r.model->hidden, dtype.bytes_per_element, dtype.id);
  if (dtype.bytes_per_element > 1) {
    return elements;
  }
  return fmt::format("{} + {} / {} × {} B of scales", elements, r.model->hidden,
                     fp8_elements_per_scale, fp8_scale_bytes);
}

void derive_kernel(const EpRequest& r, std::string_view name, const EpKernelCost& k, Bytes token,
                   const Dtype& dtype, Derivations& d) {
  d.push_back({fmt::format("{} bytes per token", name), token_formula(r, dtype), token.value(),
               format_bytes(token)});
  const auto per_gpu = [&](std::string_view where, double copies, Bytes bytes) {
    d.push_back({fmt::format("{} {} bytes per GPU", name, where),
                 fmt::format("{} B × {} tokens × {} skew × {:.4g} copies",
                             format_count(token.value()), r.tokens_per_gpu, r.routing.skew, copies),
                 bytes.value(), format_bytes(bytes)});
  };
  per_gpu("network", k.network_copies, k.network);
  per_gpu("scale-up", k.scale_up_copies, k.scale_up);
}

} // namespace

Derivations derive_ep(const EpRequest& request, const EpLayerCost& cost, int moe_layers) {
  Derivations d;
  derive_kernel(request, "dispatch", cost.dispatch, cost.dispatch_token, *request.dispatch_dtype,
                d);
  derive_kernel(request, "combine", cost.combine, cost.combine_token, *request.combine_dtype, d);
  const Bytes bytes = cost.bytes(moe_layers);
  d.push_back({"bytes per GPU per pass",
               fmt::format("({} + {}) × {} MoE layers", format_bytes(cost.dispatch.bytes()),
                           format_bytes(cost.combine.bytes()), moe_layers),
               bytes.value(), format_bytes(bytes)});
  const Seconds headline = cost.headline(moe_layers);
  d.push_back({"headline per pass",
               fmt::format("({} + {}) × {} MoE layers", format_seconds(cost.dispatch.headline),
                           format_seconds(cost.combine.headline), moe_layers),
               headline.value(), format_seconds(headline)});
  if (const std::optional<Seconds> expected = cost.expected(moe_layers)) {
    d.push_back({"expected per pass",
                 fmt::format("({} + {}) × {} MoE layers", format_seconds(*cost.dispatch.expected),
                             format_seconds(*cost.combine.expected), moe_layers),
                 expected->value(), format_seconds(*expected)});
  }
  return d;
}

namespace {

/// "1 node", "4 nodes".
std::string node_count(int nodes) {
  return fmt::format("{} node{}", nodes, nodes == 1 ? "" : "s");
}

std::string kernel_figures(const EpRequest& q, const EpLayerCost& layer) {
  const Fabric& f = q.fabric;
  const bool leaves = q.gpus > f.gpus_per_node;
  const Link& link = leaves ? *f.scale_out : *f.scale_up;
  if (q.mode == EpMode::nccl) {
    return fmt::format("NCCL's all-to-all under the expected model, each token sent once per "
                       "chosen expert ({})",
                       Knob::mode);
  }
  if (!layer.dispatch.expected) {
    return fmt::format("{} has no expected model: headline only ({})", link.id, Knob::mode);
  }
  if (layer.dispatch.nccl_figures || layer.combine.nccl_figures) {
    return fmt::format("no published expert-parallel figures on {}: its NCCL efficiency and step "
                       "latency stand in for DeepEP's ({} nccl prices NCCL's all-to-all)",
                       link.id, Knob::mode);
  }
  return fmt::format("DeepEP's kernels at the catalog's figures for {}{}, fitted to published "
                     "DeepEP runs ('icx links {}')",
                     link.id, leaves ? fmt::format(" and {}", f.scale_up->id) : std::string(),
                     link.id);
}

} // namespace

std::vector<std::string> ep_assumptions(const EpRequest& q, const EpLayerCost& layer) {
  const EpDestinations& d = layer.destinations;
  std::vector<std::string> lines;
  lines.push_back(
      fmt::format("each GPU dispatches its own {} tokens (data-parallel attention) ({})",
                  q.tokens_per_gpu, Knob::tokens_per_gpu));
  std::string routing = "tokens route uniformly among the experts they may use";
  const bool nodes = q.gpus > q.fabric.gpus_per_node;
  if (d.limit == "model") {
    routing += fmt::format(": {} of the model's {} expert groups{}", d.groups_per_token, d.groups,
                           nodes ? ", so at most " + node_count(d.max_nodes) : "");
  } else if (d.limit == "flag" && nodes) {
    routing += ": those on at most " + node_count(d.max_nodes);
  }
  lines.push_back(fmt::format("{} ({})", routing, Knob::max_nodes_per_token));
  lines.push_back(
      fmt::format("the busiest GPU carries {}× the mean traffic ({})", q.routing.skew, Knob::skew));
  lines.push_back(fmt::format("dispatch in {}{}, combine in {} ({}, {})", q.dispatch_dtype->id,
                              q.dispatch_dtype->bytes_per_element <= 1
                                  ? fmt::format(" with one {}-byte scale per {} values",
                                                fp8_scale_bytes, fp8_elements_per_scale)
                                  : "",
                              q.combine_dtype->id, Knob::dispatch_dtype, Knob::combine_dtype));
  lines.push_back(fmt::format("{} redundant experts ({}): they add weights, not traffic",
                              q.routing.redundant_experts, Knob::redundant_experts));
  lines.push_back(kernel_figures(q, layer));
  return lines;
}

} // namespace icx
