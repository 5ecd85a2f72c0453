// The fixture the load tests share (test_serving_load.cpp, test_simulation_costs.cpp): one
// H100-like GPU (80 GB, 3.35 TB/s, 989 TFLOP/s × 0.5, no HBM fraction: 1) serving an
// 8e9-parameter dense model in BF16: 16 GB of weights, 32 layers × 8 KV heads × 128 × 2 (K
// and V) × 2 B = 131,072 B of KV cache per token. Nothing crosses a wire (TP 1). The engine
// has no cost of its own and runs 256 sequences and 8192-token chunks, decode first.
#pragma once

#include <gtest/gtest.h>

#include "icx/serving/request_load.hpp"
#include "test_fixtures.hpp"

namespace icx::test {

class EightBOnOneGpu : public ::testing::Test, protected ClusterParts {
protected:
  Model model = make_dense(4096, 32, 8e9, 32);
  Catalog catalog;
  Cluster cluster{&gpu, 1, 8, 8, &nvlink, &ndr, 8};
  Layout one{1, 1, 1, 1};

  void SetUp() override {
    model.head_dim = 128;
    catalog.overlay_text(R"({"dtypes": [{"id": "bf16", "name": "B", "bytes_per_element": 2,
                                          "source": "s"}]})",
                         "test.json");
    catalog.overlay_text(engine_overlay, "engines.json");
  }

  [[nodiscard]] LoadWorkloads workloads(const Load& load) const {
    return load_workloads(catalog, model, bf16, gpu, ServingRequest{}, load);
  }
};

/// KV cache bytes of one token of the fixture's model.
constexpr double eight_b_kv_per_token = 32 * 8 * 128 * 2 * 2.0;

} // namespace icx::test
