// The catalog's kernel curves as JSON, as data/catalog/gpus.json writes them.
#include <functional>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "catalog/json_detail.hpp"
#include "icx/base/units.hpp"

namespace icx::detail {

namespace {

/// Whether `defaults` holds `curve` for `dtype`: what another engine takes when it gives none.
template <typename Curve>
bool is_default(const std::map<std::string, Curve, std::less<>>* defaults, const std::string& dtype,
                const Curve& curve) {
  if (defaults == nullptr) {
    return false;
  }
  const auto it = defaults->find(dtype);
  return it != defaults->end() && it->second == curve;
}

Json attention_json(const AttentionCurve& a) {
  Json curve = {{"prefill",
                 {{"compute_fraction", json_number(a.compute_fraction)},
                  {"half_tokens", json_number(a.half_tokens)},
                  {"half_head_dim", json_number(a.half_head_dim)},
                  {"launch_us", in_unit(a.prefill_launch.value(), micro)}}},
                {"decode",
                 {{"memory_fraction", json_number(a.memory_fraction)},
                  {"head_ns", in_unit(a.per_head.value(), nano)},
                  {"fp8_cache_scale", a.fp8_cache_scale},
                  {"launch_us", in_unit(a.decode_launch.value(), micro)}}}};
  if (a.half_sequences > 0) {
    curve["decode"]["half_sequences"] = json_number(a.half_sequences);
  }
  return curve;
}

} // namespace

void write_curves(Json& out, const KernelCurves& curves, const KernelCurves* defaults) {
  const bool all = defaults == nullptr;
  for (const auto& [dtype, c] : curves.gemm) {
    if (is_default(all ? nullptr : &defaults->gemm, dtype, c)) {
      continue;
    }
    out["gemm"][dtype] = {{"compute_fraction", json_number(c.compute_fraction)},
                          {"half_weights_M", in_unit(c.half_weights, mega)},
                          {"memory_fraction", json_number(c.memory_fraction)},
                          {"knee", json_number(c.knee)},
                          {"floor_us", in_unit(c.floor.value(), micro)},
                          {"launch_us", in_unit(c.launch.value(), micro)}};
  }
  for (const auto& [dtype, c] : curves.moe) {
    if (is_default(all ? nullptr : &defaults->moe, dtype, c)) {
      continue;
    }
    out["moe"][dtype] = {{"compute_fraction", json_number(c.compute_fraction)},
                         {"half_tokens", json_number(c.half_tokens)},
                         {"memory_fraction", json_number(c.memory_fraction)},
                         {"knee", json_number(c.knee)},
                         {"launch_us", in_unit(c.launch.value(), micro)},
                         {"route_ns", in_unit(c.per_entry.value(), nano)}};
  }
  if (const auto& a = curves.attention; a && (all || a != defaults->attention)) {
    out["attention"] = attention_json(*a);
  }
  if (const auto& a = curves.mla; a && (all || a != defaults->mla)) {
    out["mla"] = attention_json(*a);
  }
}

} // namespace icx::detail
