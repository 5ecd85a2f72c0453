#include "icx/words/ep.hpp"

#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>

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

} // namespace icx
