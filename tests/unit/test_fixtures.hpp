// Small hand-made catalog entries for unit tests: figures chosen for easy arithmetic, so a
// data edit in data/ can never break a test.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "icx/base/error.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/reports/place.hpp"

namespace icx::test {

/// The rows of a comma-separated file under data/measurements (no quoted fields), each split
/// into its cells, without the header line.
inline std::vector<std::vector<std::string>> measurement_rows(const std::string& name) {
  std::ifstream in(std::string(ICX_MEASUREMENTS_DIR) + "/" + name);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream fields(line);
    for (std::string cell; std::getline(fields, cell, ',');) {
      cells.push_back(cell);
    }
    rows.push_back(std::move(cells));
  }
  return rows;
}

/// `gpus` GPUs of catalog system `id`, resolved the way `icx place --system` does.
inline Cluster system_cluster(const Catalog& catalog, const char* id, int gpus) {
  const System& system = catalog.system(id);
  ClusterRequest r;
  r.system = &system;
  r.gpu = &catalog.gpu(system.gpu);
  r.scale_up = &catalog.link(system.scale_up_link);
  r.scale_out = &catalog.link(system.scale_out_link);
  r.gpus = gpus;
  return resolve_cluster(r, catalog.links());
}

inline Link make_link(const char* id, Tier tier, double headline_gbps) {
  Link link;
  link.id = id;
  link.tier = tier;
  link.headline_bandwidth = Range<BytesPerSecond>::exactly(gigabytes_per_second(headline_gbps));
  link.per_direction_bandwidth = link.headline_bandwidth;
  return link;
}

/// An H100-like GPU: 80 GB, 3.35 TB/s, 989 TFLOP/s BF16 dense, 50 % utilisation.
inline Gpu make_gpu(const char* link, int domain) {
  Gpu gpu;
  gpu.id = "gpu";
  gpu.hbm_capacity = Bytes::of(80e9);
  gpu.hbm_bandwidth = gigabytes_per_second(3350);
  gpu.dense_peak["bf16"] = FlopsPerSecond::of(989e12);
  gpu.scale_up_link = link;
  gpu.scale_up_domain = domain;
  gpu.achievable_mfu = 0.5;
  return gpu;
}

inline Dtype make_dtype(const char* id, double bytes) {
  Dtype dtype;
  dtype.id = id;
  dtype.bytes_per_element = bytes;
  return dtype;
}

/// A dense model; active parameters equal total.
inline Model make_dense(int hidden, int layers, double params, int heads) {
  Model model;
  model.id = "dense";
  model.hidden = hidden;
  model.layers = layers;
  model.total_params = params;
  model.active_params = params;
  model.attention_heads = heads;
  model.kv_heads = 8;
  return model;
}

/// A 70B-class dense model: 70e9 parameters, hidden 8192, 80 layers, 64 query heads, 8 KV
/// heads of 128.
inline Model make_seventy_b() {
  Model model = make_dense(8192, 80, 70e9, 64);
  model.head_dim = 128;
  return model;
}

/// Parts of an H100-like cluster: NVLink 4 inside a node of 8, InfiniBand NDR between
/// nodes, PCIe 4 as the slow alternative, BF16 weights.
struct ClusterParts {
  Link nvlink = make_link("nvlink4", Tier::scale_up, 900);
  Link ndr = make_link("ib-ndr", Tier::scale_out, 50);
  Link pcie = make_link("pcie4", Tier::host, 32);
  Gpu gpu = make_gpu("nvlink4", 8);
  Dtype bf16 = make_dtype("bf16", 2);
};
/// A ring expected model with a 100 µs ramp and an LL slowdown of 1.
inline ExpectedModel ring_model(double efficiency, double step_us) {
  ExpectedModel model;
  model.efficiency = efficiency;
  model.step_latency = microseconds(step_us);
  model.ramp = microseconds(100);
  model.small_message_slowdown = 1.0;
  return model;
}

/// An NVSwitch link "testlink" built in the test, so a catalog edit cannot change its
/// figures: 900 GB/s headline (both ways summed), 450 GB/s each way; with an expected model:
/// ring efficiency 0.8 at 2 µs per step, a 100 µs ramp with slowdown 1 and, `with_nvls`,
/// in-network reduction at 0.6 with 30 µs.
inline Link nvswitch_link(bool with_expected = true, bool with_nvls = true) {
  Link link = make_link("testlink", Tier::scale_up, 900);
  link.headline_convention = Convention::both_directions_summed;
  link.per_direction_bandwidth = Range<BytesPerSecond>::exactly(gigabytes_per_second(450));
  if (with_expected) {
    ExpectedModel model = ring_model(0.8, 2);
    if (with_nvls) {
      model.in_network_reduction = InNetworkReduction{0.6, microseconds(30)};
    }
    link.expected = model;
  }
  return link;
}

/// A host link "testpcie" built in the test: 64 GB/s each way; an expected model at 0.8 with
/// 3 µs per step, a 100 µs ramp with slowdown 1; three topologies, by id as a catalog file
/// gives them: "dual-socket" (0.4, 5 µs, only when named), "host" (0.5, 4 µs, the default up
/// to 8 GPUs) and "switch" (0.8, 3 µs, the default up to 4).
inline Link pcie_link() {
  Link link = make_link("testpcie", Tier::host, 64);
  ExpectedModel model;
  model.efficiency = 0.8;
  model.step_latency = microseconds(3);
  model.ramp = microseconds(100);
  model.small_message_slowdown = 1.0;
  link.expected = model;
  link.topologies = {
      {"dual-socket", "across sockets", 0.4, microseconds(5), std::nullopt, {"SYS"}, "s"},
      {"host", "through one CPU", 0.5, microseconds(4), 8, {"PHB", "NODE"}, "s"},
      {"switch", "under a PCIe switch", 0.8, microseconds(3), 4, {"PIX", "PXB"}, "s"}};
  return link;
}

/// The CatalogError message of overlaying `text` (as "user.json") on `catalog`; "(no error)"
/// when it reads.
inline std::string catalog_error(Catalog catalog, const std::string& text) {
  try {
    catalog.overlay_text(text, "user.json");
  } catch (const CatalogError& error) {
    return error.what();
  }
  return "(no error)";
}

/// A catalog overlay of one engine "vllm" whose scheduler runs at most 256 sequences and
/// prefill chunks of 8192 tokens on every GPU, with vLLM's all-reduce dispatch.
inline constexpr const char* engine_overlay = R"({"engines": [{"id": "vllm", "name": "E",
  "version": "1", "impl": "vllm", "scheduler": {"all": {"max_batch": 256, "prefill_chunk": 8192}},
  "policy": "decode-first",
  "costs": {"step_us": 0, "layer_us": 0, "request_us": 0},
  "source": "s"}]})";

/// A catalog of one NVSwitch link "fast": 900 GB/s headline (both ways summed), 450 GB/s each
/// way, ring efficiency 0.8 at 2 µs per step, a 100 µs ramp with slowdown 1; a 4 GiB ring
/// all-reduce on 8 GPUs runs at about 0.8 × 450 = 360 GB/s busbw.
inline Catalog nvswitch_catalog() {
  Catalog catalog;
  catalog.overlay_text(R"({"links": [
    {"id": "fast", "name": "Fast", "connects": "GPU", "tier": "scale-up", "headline_GBps": 900,
     "headline_convention": "both-directions-summed", "per_direction_GBps": 450,
     "latency_us": 1, "source": "s",
     "expected": {"efficiency": 0.8, "step_latency_us": 2, "ramp_us": 100,
                  "small_message_slowdown": 1, "source": "prior"}}]})",
                       "links.json");
  return catalog;
}

/// A 50 GB/s NIC "nic" with an expected model: efficiency 0.9 at 5 µs per step, ramp 100 µs,
/// LL slowdown 1.
inline Link nic_link() {
  Link link = make_link("nic", Tier::scale_out, 50);
  link.expected = ring_model(0.9, 5);
  return link;
}

} // namespace icx::test
