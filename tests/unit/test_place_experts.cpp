// Expert-parallel layouts as icx ranks them on the shipped catalog's systems: expert groups
// may cross nodes and are judged on their numbers, and no system's recommendation is one icx
// itself calls avoid.
#include <string>

#include <gtest/gtest.h>

#include "icx/reports/place.hpp"
#include "icx/serving/ranking.hpp"

namespace icx::unit_place_experts {
namespace {

const Catalog& shipped() {
  static const Catalog catalog = Catalog::shipped();
  return catalog;
}

PlaceRequest on_system(const std::string& system_id, const std::string& model_id,
                       std::optional<int> gpus, Phase phase, Objective objective) {
  const Catalog& c = shipped();
  const System& system = c.system(system_id);
  ClusterRequest cluster;
  cluster.system = &system;
  cluster.gpu = &c.gpu(system.gpu);
  cluster.scale_up = &c.link(system.scale_up_link);
  cluster.scale_out = system.scale_out_link.empty() ? nullptr : &c.link(system.scale_out_link);
  cluster.gpus = gpus;
  PlaceRequest r;
  r.cluster = resolve_cluster(cluster, c.links());
  r.system = &system;
  r.model = &c.model(model_id);
  r.dtype = &c.dtype(r.model->default_dtype);
  r.serving.phase = phase;
  r.serving.tokens = 4096;
  r.serving.context = 4096;
  r.serving.objective = objective;
  return r;
}

const StrategyCost& expert_split(const Placement& p) {
  for (const StrategyCost& cost : p.strategies) {
    if (cost.strategy == Strategy::expert) {
      return cost;
    }
  }
  throw std::logic_error("no expert split");
}

TEST(PlaceExperts, ExpertGroupAcrossNodesIsJudgedNotBanned) {
  // DeepSeek serves decode with EP across nodes; EP 32 over four DGX H200 is priced by
  // DeepEP's low-latency kernels on ib-ndr and judged by its share of the step.
  PlaceRequest r = on_system("dgx-h200", "deepseek-v3", 32, Phase::decode, Objective::throughput);
  r.layout = LayoutRequest::of(Layout{1, 1, 32, 1});
  const PlaceReport report = place_report(shipped(), r);
  const StrategyCost& ep = expert_split(report.placement());
  EXPECT_TRUE(ep.crosses_domain);
  EXPECT_FALSE(ep.verdict.breaks_rule);
  EXPECT_TRUE(ep.expected_seconds.has_value());
  EXPECT_NE(report.chosen_layout().verdict.level, Level::avoid);
}

TEST(PlaceExperts, Nvl72RecommendationIsNeverAvoid) {
  for (const Phase phase : {Phase::prefill, Phase::decode}) {
    for (const Objective objective : {Objective::latency, Objective::throughput}) {
      const PlaceReport report = place_report(
          shipped(), on_system("gb200-nvl72", "deepseek-v3", std::nullopt, phase, objective));
      EXPECT_TRUE(report.recommended);
      EXPECT_NE(report.chosen_layout().verdict.level, Level::avoid)
          << to_string(phase) << " " << to_string(objective) << ": "
          << report.chosen_layout().verdict.reason;
    }
  }
}

TEST(PlaceExperts, MixtralRanksExpertAndTensorLayoutsWithReasons) {
  const PlaceReport report =
      place_report(shipped(), on_system("dgx-h100", "mixtral-8x7b", std::nullopt, Phase::decode,
                                        Objective::throughput));
  bool expert = false;
  bool tensor = false;
  for (const RankedLayout& r : report.ranked) {
    if (!r.placement.fits()) {
      continue;
    }
    EXPECT_FALSE(r.verdict.reason.empty());
    expert = expert || (r.placement.layout.ep > 1 && r.placement.layout.tp == 1);
    tensor = tensor || (r.placement.layout.tp > 1 && r.placement.layout.ep == 1);
  }
  EXPECT_TRUE(expert);
  EXPECT_TRUE(tensor);
}

} // namespace
} // namespace icx::unit_place_experts
