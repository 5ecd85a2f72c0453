// Reading a catalog GPU: its memory, dense peaks, scale-up link and domain, efficiencies, and
// its fitted GEMM and attention curves.
#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_reader.hpp"
#include "catalog/parse.hpp"
#include "icx/base/limits.hpp"
#include "icx/base/units.hpp"

namespace icx::detail {

namespace {

/// One dtype's GEMM curve (icx/catalog/catalog.hpp GemmCurve); every figure required.
GemmCurve read_gemm_curve(ObjectReader& reader) {
  GemmCurve curve;
  curve.compute_fraction = reader.fraction("compute_fraction");
  curve.half_weights = reader.positive("half_weights_M", limits::half_weights_M) * mega;
  curve.memory_fraction = reader.fraction("memory_fraction");
  curve.knee = reader.positive("knee", limits::knee);
  curve.floor = Seconds::of(reader.positive("floor_us", limits::latency_us) * micro);
  curve.launch = Seconds::of(reader.positive("launch_us", limits::latency_us) * micro);
  reader.finish();
  return curve;
}

/// One dtype's routed-expert curve (icx/catalog/catalog.hpp MoeCurve); every figure required.
MoeCurve read_moe_curve(ObjectReader& reader) {
  MoeCurve curve;
  curve.compute_fraction = reader.fraction("compute_fraction");
  curve.half_tokens = reader.positive("half_tokens", limits::half_tokens);
  curve.memory_fraction = reader.fraction("memory_fraction");
  curve.knee = reader.positive("knee", limits::knee);
  curve.launch = Seconds::of(reader.positive("launch_us", limits::latency_us) * micro);
  curve.per_entry = Seconds::of(reader.positive("route_ns", limits::route_ns) * nano);
  reader.finish();
  return curve;
}

/// The GPU's curves of one kind by dtype (`section`: "gemm" or "moe"): each dtype one the GPU
/// has a dense peak for, each curve read by `read`.
template <typename Curve>
void read_curves(ObjectReader& reader, const Gpu& gpu, const std::string& origin,
                 const char* section, Curve (*read)(ObjectReader&),
                 std::map<std::string, Curve, std::less<>>& out) {
  if (!reader.has(section)) {
    return;
  }
  const nlohmann::json& curves = reader.object(section);
  for (const auto& [dtype, value] : curves.items()) {
    if (!gpu.dense_peak.contains(dtype)) {
      reader.fail(section, fmt::format("'{}' has no dense_tflops figure to scale its curve; add "
                                       "its peak to dense_tflops or drop the curve",
                                       dtype));
    }
    if (!value.is_object()) {
      ObjectReader(curves, reader.pointer_to(section), origin)
          .fail(dtype, "expected an object of the curve's figures");
    }
    ObjectReader curve(value, reader.pointer_to(section) / dtype, origin);
    out[dtype] = read(curve);
  }
}

/// An attention curve under `key` ("attention" or "mla"; icx/catalog/curves.hpp
/// AttentionCurve): a prefill and a decode object, every figure required; a curve needs the
/// 16-bit peak the prefill scales.
void read_attention_curve(ObjectReader& reader, const Gpu& gpu, const std::string& origin,
                          const char* key, std::optional<AttentionCurve>& out) {
  if (!reader.has(key)) {
    return;
  }
  if (!gpu.dense_peak.contains(attention_peak_dtype)) {
    reader.fail(key, fmt::format("needs a {} figure in dense_tflops to scale its prefill; add "
                                 "it or drop the curve",
                                 attention_peak_dtype));
  }
  const nlohmann::json::json_pointer at = reader.pointer_to(key);
  ObjectReader phases(reader.object(key), at, origin);
  ObjectReader prefill(phases.object("prefill"), at / "prefill", origin);
  ObjectReader decode(phases.object("decode"), at / "decode", origin);
  phases.finish();
  AttentionCurve curve;
  curve.compute_fraction = prefill.fraction("compute_fraction");
  curve.half_tokens = prefill.positive("half_tokens", limits::half_tokens);
  curve.half_head_dim = prefill.positive("half_head_dim", limits::half_head_dim);
  curve.prefill_launch = Seconds::of(prefill.positive("launch_us", limits::latency_us) * micro);
  prefill.finish();
  curve.memory_fraction = decode.fraction("memory_fraction");
  curve.per_head = Seconds::of(decode.positive("head_ns", limits::route_ns) * nano);
  curve.fp8_cache_scale = decode.fraction("fp8_cache_scale");
  if (decode.has("half_sequences")) {
    curve.half_sequences = decode.positive("half_sequences", limits::half_sequences);
  }
  curve.decode_launch = Seconds::of(decode.positive("launch_us", limits::latency_us) * micro);
  decode.finish();
  out = curve;
}

/// One engine's curves from `reader` (the GPU's object, or one of its engine_curves).
void read_kernel_curves(ObjectReader& reader, const Gpu& gpu, const std::string& origin,
                        KernelCurves& out) {
  read_curves(reader, gpu, origin, "gemm", read_gemm_curve, out.gemm);
  read_curves(reader, gpu, origin, "moe", read_moe_curve, out.moe);
  read_attention_curve(reader, gpu, origin, "attention", out.attention);
  read_attention_curve(reader, gpu, origin, "mla", out.mla);
}

/// Other engines' curves by engine id, each with at least one section; the ids are checked
/// against the catalog's engines once every file is read.
void read_engine_curves(ObjectReader& reader, Gpu& gpu, const std::string& origin) {
  if (!reader.has("engine_curves")) {
    return;
  }
  const nlohmann::json::json_pointer at = reader.pointer_to("engine_curves");
  const nlohmann::json& engines = reader.object("engine_curves");
  ObjectReader each(engines, at, origin);
  for (const auto& [engine, value] : engines.items()) {
    ObjectReader one(each.object(engine), at / engine, origin);
    KernelCurves curves;
    read_kernel_curves(one, gpu, origin, curves);
    if (curves.empty()) {
      each.fail(engine, "expected at least one of gemm, moe, attention and mla");
    }
    one.finish();
    gpu.engine_curves[engine] = curves;
  }
  each.finish();
}

/// One named setup of the software on the GPU (icx/catalog/catalog.hpp GpuTuning).
GpuTuning read_tuning(ObjectReader& reader, const std::string& id) {
  GpuTuning tuning;
  tuning.id = id;
  tuning.name = reader.text("name");
  check_printable(reader, "name", tuning.name);
  if (reader.has("mfu")) {
    tuning.mfu = reader.fraction("mfu");
  }
  if (reader.has("moe_mfu")) {
    tuning.moe_mfu = reader.fraction("moe_mfu");
  }
  if (reader.has("attention_mfu")) {
    tuning.attention_mfu = reader.fraction("attention_mfu");
  }
  if (reader.has("hbm_fraction")) {
    tuning.hbm_fraction = reader.fraction("hbm_fraction");
  }
  if (reader.has("cache_read_scale")) {
    tuning.cache_read_scale = reader.fraction("cache_read_scale");
  }
  if (reader.has("ring_step_us")) {
    tuning.ring_step = Seconds::of(reader.positive("ring_step_us", limits::engine_cost_us) * micro);
  }
  tuning.is_default = reader.flag_or("default", false);
  tuning.source = reader.text("source");
  reader.finish();
  return tuning;
}

/// The GPU's named setups, keyed by id, exactly one of them the default.
void read_tunings(ObjectReader& reader, Gpu& gpu, const std::string& origin) {
  if (!reader.has("tunings")) {
    return;
  }
  const nlohmann::json::json_pointer at = reader.pointer_to("tunings");
  const nlohmann::json& tunings = reader.object("tunings");
  ObjectReader each(tunings, at, origin);
  for (const auto& [id, value] : tunings.items()) {
    check_printable(each, id, id);
    ObjectReader one(each.object(id), at / id, origin);
    gpu.tunings.push_back(read_tuning(one, id));
  }
  each.finish();
  const auto defaults = std::ranges::count_if(gpu.tunings, &GpuTuning::is_default);
  if (defaults != 1) {
    reader.fail("tunings", fmt::format("expected exactly one tuning with \"default\": true, "
                                       "found {}",
                                       defaults));
  }
}

} // namespace

Gpu read_gpu(ObjectReader& reader, const std::string& origin) {
  Gpu gpu;
  read_entry(reader, gpu, origin);
  gpu.hbm_capacity = Bytes::of(reader.positive("hbm_GB", limits::capacity_GB) * giga);
  if (reader.has("memory_MiB")) {
    gpu.device_memory = Bytes::of(reader.positive("memory_MiB", limits::capacity_GB) * mebi);
  }
  gpu.hbm_bandwidth =
      gigabytes_per_second(reader.positive("hbm_bandwidth_GBps", limits::bandwidth_GBps));
  ObjectReader peaks(reader.object("dense_tflops"), reader.pointer_to("dense_tflops"), origin);
  for (const auto& [dtype, value] : reader.object("dense_tflops").items()) {
    gpu.dense_peak[dtype] = FlopsPerSecond::of(peaks.positive(dtype, limits::peak_TFLOPs) * tera);
  }
  if (gpu.dense_peak.empty()) {
    reader.fail("dense_tflops", "expected at least one dtype's peak, e.g. {\"bf16\": 989}");
  }
  gpu.scale_up_link = reader.text("scale_up_link");
  gpu.scale_up_domain = reader.whole("scale_up_domain", 1, limits::max_domain);
  gpu.achievable_mfu = reader.fraction("achievable_mfu");
  if (reader.has("achievable_hbm_fraction")) {
    gpu.achievable_hbm_fraction = reader.fraction("achievable_hbm_fraction");
  }
  if (reader.has("curves_from")) {
    gpu.curves_from = reader.text("curves_from");
    for (const char* own : {"gemm", "moe", "attention", "mla", "engine_curves"}) {
      if (reader.has(own)) {
        reader.fail(own, "the GPU takes its curves from curves_from; give its own or borrow, "
                         "not both");
      }
    }
  }
  read_kernel_curves(reader, gpu, origin, gpu.curves);
  read_engine_curves(reader, gpu, origin);
  read_tunings(reader, gpu, origin);
  gpu.reference = reader.flag_or("reference", false);
  return gpu;
}

} // namespace icx::detail
