// The "icx.plan/1" document.
#include "icx/reports/plan.hpp"

#include "icx/base/knob.hpp"
#include "icx/serving/ranking.hpp"

namespace icx {

namespace {

Json price_json(const PlanCandidate& c) {
  if (!c.usd_per_node_hour) {
    return nullptr;
  }
  Json price = {{"usd_per_node_hour", json_number(*c.usd_per_node_hour)}};
  if (c.price != nullptr) {
    price["from"] = "catalog";
    price["date"] = c.price->date;
    price["source"] = c.price->source;
  } else {
    price["from"] = spelled(Knob::price);
    price["date"] = nullptr;
    price["source"] = nullptr;
  }
  return price;
}

Json pools_json(const PlanCandidate& c) {
  if (!c.disaggregated) {
    return nullptr;
  }
  const Disaggregated& d = *c.disaggregated;
  // A pool's nodes: its GPUs over a node's, a fraction for a part of one node.
  const auto nodes = [](const Cluster& pool) {
    return json_number(static_cast<double>(pool.gpus) / static_cast<double>(pool.gpus_per_node));
  };
  return {{"kv_route", std::string(to_string(d.kv_route))},
          {"kv_link", kv_link(d.prefill_cluster, d.kv_route).id},
          {"prefill",
           {{"nodes", nodes(d.prefill_cluster)},
            {"gpus", d.prefill_cluster.gpus},
            {"layout", layout_json(d.prefill.layout)},
            {"ttft_seconds", json_number(d.prefill.ttft.value())},
            {"prefill_seconds", json_number(d.prefill.prefill.step.latency.value())},
            {"prefill_share", json_number(d.prefill.prefill_share)},
            {"kv_transfer_seconds", json_number(d.prefill.kv_transfer.value())},
            {"requests_in_flight", d.prefill.batch}}},
          {"decode",
           {{"nodes", nodes(d.decode_cluster)},
            {"gpus", d.decode_cluster.gpus},
            {"layout", layout_json(d.decode.layout)},
            {"batch", d.decode.batch},
            {"tpot_seconds", json_number(d.decode.tpot.value())},
            {"capacity", d.decode.capacity}}}};
}

Json candidate_json(const PlanCandidate& c, const Load& load) {
  const LoadedStep& s = c.step;
  const bool evaluated = s.decode.step.latency.value() > 0;
  const auto figure = [&](double value) { return evaluated ? json_number(value) : Json(); };
  Json j;
  j["system"] = c.system->id;
  j["gpu"] = c.system->gpu;
  j["gpus"] = c.nodes * c.system->gpus_per_node;
  j["nodes"] = c.nodes;
  j["layout"] = evaluated ? layout_json(s.layout) : Json();
  j["batch"] = evaluated && s.limit != ServeLimit::saturated ? Json(s.batch) : Json();
  j["ttft_seconds"] = s.serves() && evaluated ? json_number(s.ttft.value()) : Json();
  j["tpot_seconds"] = s.serves() && evaluated ? json_number(s.tpot.value()) : Json();
  j["meets_targets"] = c.meets_targets;
  j["cost_per_hour_usd"] = c.cost_per_hour() ? json_number(*c.cost_per_hour()) : Json();
  const std::optional<double> per_million = c.cost_per_million_output_tokens(load);
  j["cost_per_million_output_tokens_usd"] = per_million ? json_number(*per_million) : Json();
  j["reason"] = c.reason;
  j["miss"] = c.meets_targets ? Json() : Json(std::string(to_string(c.miss)));
  j["miss_factor"] = c.meets_targets ? Json() : json_number(c.miss_factor);
  j["price"] = price_json(c);
  j["tokens_per_second_per_gpu"] = c.output_tokens_per_second(load) > 0
                                       ? figure(c.output_tokens_per_second_per_gpu(load))
                                       : Json();
  j["decode_step_seconds"] = figure(s.decode.step.latency.value());
  j["prefill_seconds"] = figure(s.prefill.step.latency.value());
  j["prefill_share"] = figure(s.prefill_share);
  j["capacity"] = evaluated ? Json(s.capacity) : Json();
  j["prefill_chunk"] = c.prefill_chunk;
  j["layouts_evaluated"] = c.layouts_evaluated;
  j["layouts_pruned"] = c.layouts_pruned;
  j["disaggregated"] = pools_json(c);
  j["simulation"] = c.simulated ? simulated_json(*c.simulated) : Json();
  return j;
}

} // namespace

void to_json(Json& json, const PlanReport& report) {
  json = json_document("icx.plan/1");
  json["model"] = {{"id", report.model->id}, {"dtype", report.dtype->id}};
  if (!report.model->expert_dtype.empty()) {
    json["model"]["expert_dtype"] = report.model->expert_dtype;
  }
  json["targets"] = {{"ttft_seconds", json_number(report.targets.ttft.value())},
                     {"ttft_statistic", std::string(to_string(report.targets.ttft_statistic))},
                     {"tpot_seconds", json_number(report.targets.tpot.value())},
                     {"tpot_statistic", std::string(to_string(report.targets.tpot_statistic))}};
  const std::optional<Traffic>& traffic = report.traffic;
  const bool closed = traffic && traffic->arrivals == Arrivals::closed;
  json["load"] = {
      {"arrivals", traffic ? Json(std::string(to_string(traffic->arrivals))) : Json("poisson")},
      {"rate_per_second", closed ? Json() : json_number(report.load.rate)},
      {"concurrency", closed ? Json(traffic->concurrency) : Json()},
      {"input_tokens", report.load.input},
      {"output_tokens", report.load.output},
      {"prefix_hit", json_number(report.load.prefix_hit)},
      {"cached_tokens",
       prefix_cached(report.load.input, report.load.prefix_hit, report.load.prefix_block)},
      {"prefix_block_tokens", report.load.prefix_block},
      {"simulated", report.simulated}};
  json["max_nodes"] = report.max_nodes;
  Json candidates = Json::array();
  for (const PlanCandidate& c : report.candidates) {
    candidates.push_back(candidate_json(c, report.load));
  }
  json["candidates"] = std::move(candidates);
  json["winner"] =
      report.winner ? candidate_json(report.candidates[*report.winner], report.load) : Json();
  json["closest"] =
      report.closest ? candidate_json(report.candidates[*report.closest], report.load) : Json();
  json["assumptions"] = report.assumptions;
  if (report.launch) {
    json["launch"] = *report.launch;
  }
}

} // namespace icx
