// Reading a catalog link: its bandwidths and their convention, the measured host-to-device
// rate, the expected (measured-NCCL) model with its kernels, and its PCIe topologies.
#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/json_reader.hpp"
#include "catalog/parse.hpp"
#include "icx/base/error.hpp"
#include "icx/base/limits.hpp"
#include "icx/catalog/json.hpp"
#include "icx/catalog/pcie_path.hpp"

namespace icx::detail {

namespace {

using limits::max_domain;

// A vendor's both-ways figure is twice its one-way figure; tolerate rounding in sources.
constexpr double direction_tolerance = 0.1;

/// The optional measured host-to-device copy bandwidth: only a host link moves host-to-device
/// copies, and a measurement cannot beat the link's one-way figure.
void read_host_to_device(ObjectReader& reader, Link& link) {
  constexpr std::string_view key = "host_to_device_GBps";
  if (!reader.has(key)) {
    return;
  }
  const double measured = reader.positive(key, limits::bandwidth_GBps);
  if (link.tier != Tier::host) {
    reader.fail(key, fmt::format("given for a {} link; only a host link (tier \"host\") carries "
                                 "host-to-device copies",
                                 to_string(link.tier)));
  }
  const BytesPerSecond each_way = link.per_direction_bandwidth.high;
  if (gigabytes_per_second(measured) > each_way * (1.0 + direction_tolerance)) {
    reader.fail(key, fmt::format("{} GB/s exceeds the link's {} GB/s each way", measured,
                                 each_way.value() / giga));
  }
  link.measured_host_to_device = gigabytes_per_second(measured);
}

/// One kernel's figures under `key`: the fraction of the per-direction bandwidth its bytes get
/// and its fixed latency.
template <class Kernel>
Kernel read_kernel(ObjectReader& parent, std::string_view key, const std::string& origin) {
  ObjectReader reader(parent.object(key), parent.pointer_to(key), origin);
  Kernel kernel;
  kernel.efficiency = reader.fraction("efficiency");
  kernel.latency = microseconds(reader.positive("latency_us", limits::latency_us));
  reader.finish();
  return kernel;
}

/// A set of optional kernels under `key` (any of `slots`) and the source of their figures.
/// `read_extra(reader, kernels)` reads the set's other fields.
template <class Kernels, class Kernel, std::size_t N, class ReadExtra>
Kernels read_kernels(ObjectReader& expected, std::string_view key,
                     const std::array<KernelSlot<Kernels, Kernel>, N>& slots,
                     const std::string& origin, ReadExtra read_extra) {
  ObjectReader reader(expected.object(key), expected.pointer_to(key), origin);
  Kernels kernels;
  for (const KernelSlot<Kernels, Kernel>& slot : slots) {
    if (reader.has(slot.key)) {
      kernels.*slot.member = read_kernel<Kernel>(reader, slot.key, origin);
    }
  }
  read_extra(reader, kernels);
  kernels.source = reader.text("source");
  reader.finish();
  return kernels;
}

/// vLLM's two dispatch limits on the wire, in KiB; multimem's must not lie below the custom
/// kernel's, as vLLM tries the custom kernel first.
void read_vllm_limits(ObjectReader& reader, EngineAllReduce& engine) {
  engine.vllm_custom_below =
      Bytes::of(reader.positive("vllm_custom_below_KiB", limits::message_KiB) * kibi);
  engine.vllm_multimem_below =
      Bytes::of(reader.positive("vllm_multimem_below_KiB", limits::message_KiB) * kibi);
  if (engine.vllm_multimem_below < engine.vllm_custom_below) {
    reader.fail("vllm_multimem_below_KiB",
                fmt::format("{:g} KiB lies below vllm_custom_below_KiB ({:g} KiB); vLLM tries its "
                            "custom kernel first, so multimem's limit is at least as large",
                            engine.vllm_multimem_below.value() / kibi,
                            engine.vllm_custom_below.value() / kibi));
  }
}

std::vector<LinkTopology> read_topologies(ObjectReader& link_reader, const std::string& origin) {
  const nlohmann::json& all = link_reader.object("topologies");
  std::vector<LinkTopology> topologies;
  for (const auto& [id, value] : all.items()) {
    ObjectReader reader(value, link_reader.pointer_to("topologies") / id, origin);
    LinkTopology topology;
    topology.id = id;
    topology.description = reader.text("description");
    topology.efficiency = reader.fraction("efficiency");
    topology.step_latency = microseconds(reader.positive("step_latency_us", limits::latency_us));
    if (reader.has("default_up_to_gpus")) {
      topology.default_up_to_gpus = reader.whole("default_up_to_gpus", 1, max_domain);
    }
    if (reader.has("topo_paths")) {
      topology.topo_paths = reader.text_list("topo_paths");
      for (const std::string& path : topology.topo_paths) {
        if (!pcie_path_class(path)) {
          reader.fail("topo_paths", fmt::format("'{}' is not a PCIe path class of nvidia-smi "
                                                "topo -m; expected PIX, PXB, PHB, NODE or SYS",
                                                path));
        }
      }
    }
    topology.source = reader.text("source");
    reader.finish();
    topologies.push_back(std::move(topology));
  }
  return topologies;
}

ExpectedModel read_expected(ObjectReader& link_reader, const std::string& origin) {
  ObjectReader reader(link_reader.object("expected"), link_reader.pointer_to("expected"), origin);
  ExpectedModel model;
  model.efficiency = reader.fraction("efficiency");
  model.step_latency = microseconds(reader.positive("step_latency_us", limits::latency_us));
  model.ramp = microseconds(reader.positive("ramp_us", limits::latency_us));
  model.small_message_slowdown = reader.positive("small_message_slowdown", limits::slowdown);
  if (reader.has("in_network_reduction")) {
    model.in_network_reduction =
        read_kernel<InNetworkReduction>(reader, "in_network_reduction", origin);
  }
  if (reader.has("engine_all_reduce")) {
    model.engine_all_reduce = read_kernels(reader, "engine_all_reduce", engine_all_reduce_kernels,
                                           origin, read_vllm_limits);
  }
  if (reader.has("expert_parallel")) {
    model.expert_parallel = read_kernels(reader, "expert_parallel", expert_parallel_kernels, origin,
                                         [](ObjectReader&, ExpertParallelKernels&) {});
  }
  model.source = reader.text("source");
  reader.finish();
  return model;
}

} // namespace

Link read_link(ObjectReader& reader, const std::string& origin) {
  Link link;
  read_entry(reader, link, origin);
  link.connects = reader.text("connects");
  link.tier = reader.choice<Tier>("tier");
  link.gpu_to_gpu = reader.flag_or("gpu_to_gpu", true);
  const Range<double> headline = reader.positive_range("headline_GBps", limits::bandwidth_GBps);
  link.headline_convention = reader.choice<Convention>("headline_convention");
  const Range<double> per_direction =
      reader.positive_range("per_direction_GBps", limits::bandwidth_GBps);
  const double directions =
      link.headline_convention == Convention::both_directions_summed ? 2.0 : 1.0;
  if (std::abs(headline.high / (directions * per_direction.high) - 1.0) > direction_tolerance) {
    reader.fail("per_direction_GBps",
                fmt::format("{} GB/s each way does not match headline_GBps {} GB/s counted as "
                            "{} (expected about {} GB/s)",
                            per_direction.high, headline.high, to_string(link.headline_convention),
                            headline.high / directions));
  }
  link.headline_bandwidth = gigabytes_range(headline);
  link.per_direction_bandwidth = gigabytes_range(per_direction);
  const Range<double> latency = reader.positive_range("latency_us", limits::latency_us);
  link.latency = {microseconds(latency.low), microseconds(latency.high)};
  read_host_to_device(reader, link);
  if (reader.has("max_domain_gpus")) {
    link.max_domain_gpus = reader.whole("max_domain_gpus", 1, max_domain);
  }
  if (reader.has("links_per_gpu")) {
    link.links_per_gpu = reader.whole("links_per_gpu", 1, max_domain);
  }
  link.full_mesh = reader.flag_or("full_mesh", false);
  if (link.full_mesh && (!link.links_per_gpu || !link.max_domain_gpus ||
                         *link.links_per_gpu != *link.max_domain_gpus - 1)) {
    reader.fail("full_mesh", "a full mesh gives each GPU one link to each peer: it needs "
                             "links_per_gpu equal to max_domain_gpus - 1");
  }
  if (reader.has("gpu_fabric")) {
    link.gpu_fabric = reader.choice<GpuFabric>("gpu_fabric");
    if (link.tier != Tier::scale_up || !link.gpu_to_gpu) {
      reader.fail("gpu_fabric", "given for a link that is not a scale-up link between GPUs "
                                "(tier scale-up, gpu_to_gpu true)");
    }
  }
  if (reader.has("expected")) {
    link.expected = read_expected(reader, origin);
  }
  if (reader.has("topologies")) {
    if (!link.expected) {
      reader.fail("topologies", "given without \"expected\"; a topology refines the expected "
                                "model's efficiency and step latency");
    }
    link.topologies = read_topologies(reader, origin);
  }
  return link;
}

} // namespace icx::detail
