// icx coldstart's report: the hard lower bound on loading a model's weights into its GPUs,
// stage by stage (storage -> host memory -> each GPU's host link), what bounds it, and
// whether it fits a time budget.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "icx/base/enum_names.hpp"
#include "icx/base/units.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/host/host_link.hpp"
#include "icx/host/weight_loading.hpp"

namespace icx {

struct ColdStartRequest {
  const Model* model = nullptr;
  /// The weights' element type.
  const Dtype* dtype = nullptr;
  /// The routed experts' element type; nullptr: `dtype`.
  const Dtype* expert_dtype = nullptr;
  /// GPUs sharing the weights in equal shards.
  int gpus = 1;
  /// GPUs in one node; absent: every GPU in one node.
  std::optional<int> gpus_per_node;
  /// The host link of each GPU.
  const Link* host_link = nullptr;
  /// Where the weights are read from; nullptr: they start in host memory (the page cache).
  const StorageTier* storage = nullptr;
  /// GPUs behind one PCIe switch uplink (the system's host side; 1 without one).
  int gpus_per_uplink = 1;
  /// Every loader to compare (the catalog's), and the one the deployment uses (nullptr: none
  /// named; the budget then gates on the floor).
  std::span<const Loader> loaders;
  const Loader* loader = nullptr;
  /// Time the load may take; absent: no budget.
  std::optional<Seconds> budget;
};

/// What a budget is checked against.
enum class BudgetBasis {
  /// The hard floor (no loader named): necessary, not sufficient.
  floor,
  /// The named loader's expected load time.
  expected_load
};

constexpr std::array<EnumName<BudgetBasis>, 2> enum_names(BudgetBasis /*unused*/) {
  return {{{BudgetBasis::floor, "floor"}, {BudgetBasis::expected_load, "expected-load"}}};
}

struct ColdStartReport {
  const Model* model = nullptr;
  const Dtype* dtype = nullptr;
  const Link* host_link = nullptr;
  const StorageTier* storage = nullptr;
  /// Numbers, stages and bottlenecks (each stage says whose shards it moves).
  ColdStart load;
  /// Why there is no expected floor; empty when there is one.
  std::string expected_unavailable;
  /// The expected load with each loader, in catalog order.
  std::vector<ExpectedLoad> loads;
  /// The named loader's load (one of `loads`); absent without --loader.
  std::optional<ExpectedLoad> load_time;
  std::optional<Seconds> budget;
  BudgetBasis budget_basis = BudgetBasis::floor;
  /// Whether the budget holds: the named loader's expected load when there is one, else the
  /// headline floor (necessary, not sufficient); absent without a budget.
  std::optional<bool> within_budget;
};

/// The cold-start floor of the request. Throws GroupError when the weights cannot be split
/// over the GPUs (check_shard), InputError on a missing model, dtype or link.
ColdStartReport coldstart_report(const ColdStartRequest& request);

/// The report's figures in base units: gpus, nodes, links, bytes, floors and stages.
void to_json(nlohmann::ordered_json& json, const LoadStage& stage);
void to_json(nlohmann::ordered_json& json, const ExpectedLoad& load);
void to_json(nlohmann::ordered_json& json, const ColdStartReport& report);

} // namespace icx
