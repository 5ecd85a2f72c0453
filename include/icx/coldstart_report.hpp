// icx coldstart's report: the hard lower bound on loading a model's weights into its GPUs,
// stage by stage (storage -> host memory -> each GPU's host link), what bounds it, and
// whether it fits a time budget.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "icx/catalog.hpp"
#include "icx/host_link.hpp"
#include "icx/units.hpp"

namespace icx {

struct ColdStartRequest {
  const Model* model = nullptr;
  /// The weights' element type.
  const Dtype* dtype = nullptr;
  /// GPUs sharing the weights in equal shards.
  int gpus = 1;
  /// GPUs in one node; absent: every GPU in one node.
  std::optional<int> gpus_per_node;
  /// The host link of each GPU.
  const Link* host_link = nullptr;
  /// Where the weights are read from; nullptr: they start in host memory (the page cache).
  const StorageTier* storage = nullptr;
  /// Time the load may take; absent: no budget.
  std::optional<Seconds> budget;
};

struct ColdStartReport {
  const Model* model = nullptr;
  const Dtype* dtype = nullptr;
  const Link* host_link = nullptr;
  const StorageTier* storage = nullptr;
  /// Numbers, stages and bottlenecks (each stage says whose shards it moves).
  ColdStart load;
  /// Why there is no expected floor; empty when there is one.
  std::string expected_unavailable;
  std::optional<Seconds> budget;
  /// Whether the headline floor fits the budget (necessary, not sufficient: filesystem,
  /// deserialisation and HBM-write overheads come on top); absent without a budget.
  std::optional<bool> within_budget;
};

/// The cold-start floor of the request. Throws GroupError when the weights cannot be split
/// over the GPUs (check_shard), InputError on a missing model, dtype or link.
ColdStartReport coldstart_report(const ColdStartRequest& request);

/// The report's figures in base units: gpus, nodes, links, bytes, floors and stages.
void to_json(nlohmann::ordered_json& json, const LoadStage& stage);
void to_json(nlohmann::ordered_json& json, const ColdStartReport& report);

} // namespace icx
