#include "icx/serving/placement.hpp"

#include <algorithm>
#include <array>
#include <numeric>

#include <fmt/format.h>

#include "icx/base/error.hpp"
#include "icx/catalog/group_rules.hpp"
#include "icx/host/host_link.hpp"
#include "icx/wire/comm_time.hpp"
#include "icx/wire/expert_parallel.hpp"
#include "serving/layout_check.hpp"

namespace icx {

namespace {

/// Whether every group of `size` consecutive ranks (groups start at multiples of `size`)
/// lies inside one block of `block` consecutive ranks (a scale-up domain, a node).
bool inside_blocks(const Cluster& cluster, int size, int block) {
  // Where a group starts inside its block repeats every block / gcd(size, block) groups, so
  // one period of groups decides for all of them.
  const int groups = std::min(cluster.gpus / size, block / std::gcd(size, block));
  for (int first = 0; first < groups * size; first += size) {
    if (first / block != (first + size - 1) / block) {
      return false;
    }
  }
  return size <= cluster.gpus;
}

bool inside_domain(const Cluster& cluster, int size) {
  return inside_blocks(cluster, size, cluster.domain);
}

/// The wire a group of `span` consecutive ranks crosses when it leaves its scale-up domain:
/// the node's link between its domains when the group stays in one node and the node has one,
/// else the scale-out link.
const Link* crossing_wire(const Cluster& cluster, int span) {
  return cluster.between_domains != nullptr && inside_blocks(cluster, span, cluster.gpus_per_node)
             ? cluster.between_domains
             : cluster.scale_out;
}

/// Cost of `count` collectives like `one` in a group of `span` consecutive ranks: on the
/// scale-up link inside a domain, else on the wire between domains (the slowest hop sets the
/// pace: on a node's own link between its domains, the whole group is priced on that link).
StrategyCost group_cost(const Cluster& cluster, Strategy strategy, int span, Bytes bytes,
                        const CollectiveRequest& one, int count) {
  StrategyCost cost;
  cost.strategy = strategy;
  cost.degree = one.gpus;
  cost.bytes = bytes;
  if (one.gpus <= 1) {
    return cost;
  }
  cost.crosses_domain = !inside_domain(cluster, span);
  cost.wire = cost.crosses_domain ? crossing_wire(cluster, span) : cluster.scale_up;
  const bool on_fabric = cost.crosses_domain && cost.wire == cluster.scale_out &&
                         cluster.scale_out != cluster.scale_up;
  const CommTime time = on_fabric
                            ? comm_time(group_fabric(cluster, one.gpus, span), bytes, one, count)
                            : comm_time(*cost.wire, bytes, one, count);
  cost.seconds = time.headline;
  cost.expected_seconds = time.expected;
  if (check_domain_size(*cluster.scale_up, one.gpus)) {
    cost.seconds_on_scale_up = cost.wire == cluster.scale_up && !on_fabric
                                   ? time.judged()
                                   : comm_time(*cluster.scale_up, bytes, one, count).judged();
  }
  return cost;
}

/// Dispatch and combine of the stage's MoE layers for the rank's own tokens (data-parallel
/// attention), by the expert-parallel model (icx/wire/expert_parallel.hpp): the ep GPUs of a group
/// spread over tp · ep consecutive ranks, on the fabric when the group leaves its domain.
StrategyCost expert_cost(const Cluster& cluster, const Workload& w, const Layout& layout,
                         std::int64_t tokens, int moe_layers) {
  StrategyCost cost;
  cost.strategy = Strategy::expert;
  cost.degree = layout.ep;
  if (layout.ep <= 1 || moe_layers == 0) {
    return cost;
  }
  const int span = layout.tp * layout.ep;
  cost.crosses_domain = !inside_domain(cluster, span);
  cost.wire = cost.crosses_domain ? crossing_wire(cluster, span) : cluster.scale_up;
  EpRequest request{w.model,        {cluster.scale_up, layout.ep, nullptr, 1},
                    layout.ep,      static_cast<double>(tokens),
                    w.ep_kernels(), &w.ep_dispatch_dtype(),
                    w.act_dtype,    w.ep_routing};
  // The same dispatch inside one domain, where the scale-up link can join the group.
  const std::optional<EpLayerCost> inside = check_domain_size(*cluster.scale_up, layout.ep)
                                                ? std::optional(ep_layer_cost(request))
                                                : std::nullopt;
  if (inside) {
    cost.seconds_on_scale_up = inside->expected(moe_layers).value_or(inside->headline(moe_layers));
  }
  const EpLayerCost layer = [&] {
    if (!cost.crosses_domain) {
      return *inside;
    }
    request.fabric = cost.wire == cluster.scale_out ? group_fabric(cluster, layout.ep, span)
                                                    : Fabric{cost.wire, layout.ep, nullptr, 1};
    return ep_layer_cost(request);
  }();
  cost.bytes = layer.bytes(moe_layers);
  cost.seconds = layer.headline(moe_layers);
  cost.expected_seconds = layer.expected(moe_layers);
  return cost;
}

/// One send of `bytes` priced once per wire it runs on (a pipeline has at most three: the
/// scale-up link, the node's link between its domains, the scale-out link).
class SendTimes {
public:
  SendTimes(Bytes bytes, const CollectiveRequest& send) : bytes_(bytes), send_(send) {}
  const CommTime& on(const Link& link) {
    for (std::size_t i = 0; i < count_; ++i) {
      if (links_[i] == &link) {
        return times_[i];
      }
    }
    links_.at(count_) = &link;
    times_.at(count_) = comm_time(link, bytes_, send_, 1);
    return times_.at(count_++);
  }

private:
  static constexpr std::size_t wires = 3;
  Bytes bytes_;
  const CollectiveRequest& send_;
  std::array<const Link*, wires> links_{};
  std::array<CommTime, wires> times_{};
  std::size_t count_ = 0;
};

/// Pipeline boundaries that fall on a domain edge cross the scale-out link; the others stay
/// on the scale-up link. Each boundary is one point-to-point send of the micro-batch's
/// activations.
StrategyCost pipeline_cost(const Cluster& cluster, const Layout& layout,
                           const ActivationShape& shape, std::int64_t tokens,
                           const RunSetup& setup) {
  StrategyCost cost;
  cost.strategy = Strategy::pipeline;
  cost.degree = layout.pp;
  const int stages = layout.pp;
  cost.bytes = pipeline_parallel_bytes(shape, tokens, stages);
  if (stages <= 1) {
    return cost;
  }
  const Bytes activation = activation_bytes(shape, tokens);
  const int stage_size = layout.tp * layout.ep;
  const CollectiveRequest send{Collective::point_to_point, Algorithm::automatic,
                               min_collective_gpus, activation, setup};
  // Every boundary is one send on one of at most three wires: price each wire once.
  SendTimes sends(activation, send);
  Seconds judged;
  bool all_expected = true;
  for (int boundary = 1; boundary < stages; ++boundary) {
    // The boundary joins the stage's last rank and the next stage's first rank.
    const int last = boundary * stage_size - 1;
    const bool crosses = last / cluster.domain != (last + 1) / cluster.domain;
    const bool same_node = last / cluster.gpus_per_node == (last + 1) / cluster.gpus_per_node;
    const Link* between = same_node && cluster.between_domains != nullptr ? cluster.between_domains
                                                                          : cluster.scale_out;
    cost.crosses_domain = cost.crosses_domain || crosses;
    const CommTime& time = sends.on(crosses ? *between : *cluster.scale_up);
    cost.seconds += time.headline;
    judged += time.judged();
    cost.slowest_send = std::max(cost.slowest_send, time.judged());
    all_expected = all_expected && time.expected.has_value();
  }
  cost.wire = cost.crosses_domain ? crossing_wire(cluster, stages * stage_size) : cluster.scale_up;
  if (all_expected) {
    cost.expected_seconds = judged;
  }
  cost.seconds_on_scale_up = sends.on(*cluster.scale_up).judged() * static_cast<double>(stages - 1);
  return cost;
}

/// The time a verdict weighs: expected where the link has a model, else headline.
Seconds judged(const StrategyCost& cost) {
  return cost.expected_seconds.value_or(cost.seconds);
}

/// The tensor and expert collectives of the busiest stage for one micro-batch.
void price_collectives(const Cluster& cluster, const Workload& w, Placement& p) {
  const Model& model = *w.model;
  const Layout& layout = p.layout;
  const StepBatch& batch = p.step.batch;
  const int stage_layers = (model.layers + layout.pp - 1) / layout.pp;
  // What crosses the wire is in the activations' dtype: a tensor group reduces the
  // activations of its rank's sequences, B·H·b bytes per all-reduce.
  const ActivationShape shape{model.hidden, stage_layers, w.act_dtype->bytes_per_element};
  const std::int64_t rank_tokens = batch.per_rank * batch.tokens_per_sequence;
  const Bytes activation = activation_bytes(shape, rank_tokens);
  const TensorParallelTraffic tp = tensor_parallel_traffic(shape, rank_tokens);
  p.strategies.reserve(enum_names(Strategy{}).size()); // one cost per split
  p.strategies.push_back(
      group_cost(cluster, Strategy::tensor, layout.tp, layout.tp > 1 ? tp.per_pass : Bytes::of(0),
                 {Collective::all_reduce, Algorithm::automatic, layout.tp, activation, w.setup},
                 tp.allreduces_per_layer * stage_layers));
  const int moe_layers =
      (param_split(model).moe_layers * stage_layers + model.layers - 1) / model.layers;
  p.strategies.push_back(expert_cost(cluster, w, layout, rank_tokens, moe_layers));
  // A pipeline boundary sends the whole micro-batch's activations.
  p.strategies.push_back(
      pipeline_cost(cluster, layout, shape, batch.micro * batch.tokens_per_sequence, w.setup));
  StrategyCost replicas;
  replicas.strategy = Strategy::data;
  replicas.degree = layout.dp;
  p.strategies.push_back(replicas);
}

/// The step the work and collectives make, and each split's verdict against it.
/// The drafts of a speculative step: each one decoder layer of the stage and the LM head at one
/// token per sequence (the stage's pass at one token, its layers' share of one layer) with that
/// layer's share of the collectives; the acceptance is the tokens the step emits.
void price_drafts(const Gpu& gpu, const Workload& w, Placement& p) {
  StepBatch one = p.step.batch;
  one.tokens_per_sequence = 1;
  const StageWork work = stage_work(gpu, w, p.layout, one);
  Seconds head;
  for (const StepTerm& term : work.terms) {
    head += term.op == StepOp::lm_head ? term.seconds : Seconds{};
  }
  const auto stage_layers = static_cast<double>(ceil_div(w.model->layers, p.layout.pp));
  Seconds comm;
  for (const StrategyCost& cost : p.strategies) {
    const bool layered = cost.strategy == Strategy::tensor || cost.strategy == Strategy::expert;
    comm += layered ? judged(cost) * (1.0 - w.overlap) : Seconds{};
  }
  const Seconds layer = (work.seconds - head + comm) / stage_layers;
  p.step.draft = (layer + head) * static_cast<double>(w.spec->draft_tokens);
  p.step.emitted = w.spec->acceptance;
}

/// The engine schedules a step once for all its stages and leaves gaps between each stage's
/// layers; a prompt also pays its per-request time outside the GPUs, and a speculative step
/// the engine's own part of it (an engine-less workload pays none of them).
void add_engine_costs(const Workload& w, Placement& p) {
  if (w.engine == nullptr) {
    return;
  }
  StepTime& step = p.step;
  const int stage_layers = (w.model->layers + p.layout.pp - 1) / p.layout.pp;
  step.layer_gaps = w.engine->costs.layer * static_cast<double>(stage_layers);
  // The host's work per sequence is each scheduler's: a replica's sequences, shared by its
  // expert ranks where each runs attention for its own.
  const std::int64_t scheduled = ceil_div(step.batch.replica, p.layout.ep);
  step.engine = w.engine->costs.step + w.engine->costs.sequence * static_cast<double>(scheduled);
  if (w.phase == Phase::prefill) {
    step.engine += w.engine->costs.prefill_step;
  }
  step.request = w.phase == Phase::prefill ? w.engine->costs.request : Seconds{};
  step.pass_scale = w.phase == Phase::prefill ? w.engine->costs.prefill_pass_scale : 1.0;
  step.prompt_scale = w.phase == Phase::prefill ? w.engine->costs.prompt_scale : 1.0;
  if (w.spec && w.phase == Phase::decode && w.engine->speculation) {
    // Once a step, and once a draft.
    const SpeculationCosts& spec = *w.engine->speculation;
    step.draft += spec.step + spec.draft * static_cast<double>(w.spec->draft_tokens);
  }
}

void time_step(const Cluster& cluster, const Workload& w, Placement& p) {
  StepTime& step = p.step;
  Seconds slowest_send;
  for (const StrategyCost& cost : p.strategies) {
    if (cost.strategy == Strategy::tensor || cost.strategy == Strategy::expert) {
      step.comm += judged(cost);
    } else if (cost.strategy == Strategy::pipeline) {
      step.pipeline = judged(cost);
      slowest_send = cost.slowest_send;
    }
  }
  // Engines run the tensor and expert collectives between the layers' GEMMs: exposed unless
  // the workload says an engine hides some of them.
  step.exposed_comm = step.comm * (1.0 - w.overlap);
  add_engine_costs(w, p);
  // The pass scale is the engine's prefill pass over its kernels timed alone: an operation
  // priced at an assumed utilisation of peak (no curve) already stands for the whole pass.
  const Seconds pass = step.work.seconds + step.work.measured * (step.pass_scale - 1);
  step.stage = (pass + step.exposed_comm) * step.prompt_scale + step.layer_gaps;
  // One micro-batch passes the stages one after another, after its drafts; a speculative step
  // emits step.emitted tokens a sequence, so a token's time is the step's share.
  step.latency =
      (step.stage * static_cast<double>(p.layout.pp) + step.pipeline + step.engine + step.draft) /
          step.emitted +
      step.request;
  const double tokens =
      static_cast<double>(step.batch.total) *
      (w.spec && w.phase == Phase::decode ? step.emitted
                                          : static_cast<double>(step.batch.tokens_per_sequence));
  step.tokens_per_second_per_gpu =
      tokens /
      ((step.stage + slowest_send) * static_cast<double>(p.layout.pp) + step.engine + step.draft)
          .value() /
      cluster.gpus;
  for (StrategyCost& cost : p.strategies) {
    const bool pipeline = cost.strategy == Strategy::pipeline;
    const Seconds exposed = pipeline ? judged(cost) : judged(cost) * (1.0 - w.overlap);
    cost.verdict = judge(cost.strategy, cost.degree > 1 ? cost.wire : nullptr, exposed,
                         pipeline ? step.latency : step.stage);
    cost.verdict.expected_model = cost.expected_seconds.has_value();
    if (cost.verdict.breaks_rule && cost.verdict.expected_model) {
      // The expected model (across nodes, the fabric's) prices the split, so the layout is
      // judged on its numbers against the best one that keeps to the rule (ranking.cpp);
      // breaking the rule is never better than marginal.
      cost.verdict.level = worst(Level::marginal, level_for_share(cost.verdict.share));
    }
    p.level = worst(p.level, cost.verdict.level);
  }
  // A stage waits for its all-reduces and its all-to-alls alike: the layout is judged on
  // their sum, not on each alone.
  p.level = worst(p.level, level_for_share(stage_comm_share(step)));
}

} // namespace

double stage_comm_share(const StepTime& step) {
  return step.stage.value() > 0 ? step.exposed_comm / step.stage : 0.0;
}

Seconds attention_busy(const StepTime& step, int stages) {
  const auto term = std::ranges::find(step.work.terms, StepOp::attention, &StepTerm::op);
  if (term == step.work.terms.end()) {
    return {};
  }
  // As time_step runs it: the measured part at the pass scale, all of it at the prompt scale.
  const Seconds pass = term->seconds + term->measured * (step.pass_scale - 1);
  return pass * step.prompt_scale * static_cast<double>(stages);
}

Fabric group_fabric(const Cluster& cluster, int members, int span) {
  const int domain = cluster.domain;
  int per_domain = std::max(1, members * domain / std::max(span, 1));
  if (members % per_domain != 0) {
    // An uneven spread: price it as one GPU per domain, each on its own rail.
    per_domain = 1;
  }
  const int domain_nics = std::max(1, cluster.nics_per_node * domain / cluster.gpus_per_node);
  const int nics = std::max(1, domain_nics * per_domain / domain);
  return {cluster.scale_up, per_domain, cluster.scale_out, nics};
}

std::optional<ClusterProblem> cluster_problem(const Cluster& cluster, int catalog_domain,
                                              std::string_view domain_from,
                                              std::span<const Link> links) {
  const Gpu& gpu = *cluster.gpu;
  if (const Check up = check_group_link(&gpu, cluster.domain, *cluster.scale_up); !up) {
    return ClusterProblem{ClusterPart::scale_up, up.reason()};
  }
  const Link& out = *cluster.scale_out;
  Check check = check_gpu_link(gpu, out);
  if (check) {
    check = check_scale_out(out, cluster.gpus, catalog_domain, domain_from, links);
  }
  if (check && out.tier != Tier::scale_out) {
    check = check_domain_size(out, cluster.gpus);
  }
  if (!check) {
    return ClusterProblem{ClusterPart::scale_out, check.reason()};
  }
  return std::nullopt;
}

Placement evaluate_layout(const Cluster& cluster, const Workload& workload, const Layout& layout) {
  const Model& model = *workload.model;
  check_layout(cluster, model, layout, workload.ep_routing.redundant_experts);
  Placement p;
  p.layout = layout;
  p.weights = model_weight_bytes(model, *workload.dtype, workload.experts_dtype());
  const LayoutMemory capacity = layout_memory(*cluster.gpu, workload, layout, std::nullopt);
  p.step.batch = step_batch(workload, layout, capacity.replica_capacity);
  p.memory = layout_memory(*cluster.gpu, workload, layout, p.step.batch.replica);
  p.step.work = stage_work(*cluster.gpu, workload, layout, p.step.batch);
  price_collectives(cluster, workload, p);
  if (workload.spec && workload.phase == Phase::decode) {
    price_drafts(*cluster.gpu, workload, p);
  }
  time_step(cluster, workload, p);
  return p;
}

} // namespace icx
