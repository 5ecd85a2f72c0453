#include "serving/layout_check.hpp"

#include <fmt/format.h>

#include "icx/base/error.hpp"
#include "icx/catalog/group_rules.hpp"
#include "icx/wire/expert_parallel.hpp"

namespace icx {

namespace {

/// The routed experts spread over the tensor group (moe_tp below tp): an MoE model whose
/// experts the stage's expert_ranks() divide, and an expert tensor degree that divides tp.
void check_expert_split(const Model& model, const Layout& layout, int redundant_experts) {
  if (layout.moe_tp == 0) {
    return;
  }
  if (!model.is_moe()) {
    throw InputError(fmt::format("--moe-ep {} (--moe-tp {}) needs an MoE model; {} is dense",
                                 layout.expert_ranks(), layout.moe_tp, model.id));
  }
  if (layout.moe_tp < 1 || layout.moe_tp >= layout.tp || layout.tp % layout.moe_tp != 0) {
    throw InputError(fmt::format("--moe-ep {}: give a multiple of --ep ({}) above it that "
                                 "divides tp × ep ({}), e.g. --moe-ep {}",
                                 layout.expert_ranks(), layout.ep, layout.tp * layout.ep,
                                 layout.tp * layout.ep));
  }
  if (!divides_experts(model, layout.expert_ranks(), redundant_experts)) {
    throw InputError(fmt::format("--moe-ep {} does not divide the model's {} experts{}",
                                 layout.expert_ranks(), model.experts + redundant_experts,
                                 redundant_experts > 0 ? " (with the redundant ones)" : ""));
  }
}

} // namespace

void check_layout(const Cluster& cluster, const Model& model, const Layout& layout,
                  int redundant_experts) {
  if (layout.tp < 1 || layout.pp < 1 || layout.ep < 1 || layout.dp < 1 ||
      layout.product() != cluster.gpus) {
    throw InputError(fmt::format("layout tp {} × pp {} × ep {} × dp {} = {} GPUs, but the "
                                 "cluster has {}; the product must equal the GPU count",
                                 layout.tp, layout.pp, layout.ep, layout.dp, layout.product(),
                                 cluster.gpus));
  }
  if (layout.ep > 1 && !model.is_moe()) {
    throw InputError(fmt::format("expert parallel (ep {}) needs an MoE model; {} is dense",
                                 layout.ep, model.id));
  }
  if (layout.ep > 1 && !divides_experts(model, layout.ep, redundant_experts)) {
    throw InputError(fmt::format("ep {} does not divide the model's {} experts{}", layout.ep,
                                 model.experts + redundant_experts,
                                 redundant_experts > 0 ? " (with the redundant ones)" : ""));
  }
  if (const Check check = check_tensor_group(attention_shape(model), layout.tp); !check) {
    throw GroupError(fmt::format("tp {}: {}", layout.tp, check.reason()));
  }
  check_expert_split(model, layout, redundant_experts);
  if (layout.pp > model.layers) {
    throw InputError(fmt::format("pp {} exceeds the model's {} layers", layout.pp, model.layers));
  }
}

} // namespace icx
