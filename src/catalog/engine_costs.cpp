// An engine's costs figure by figure: copying the figures a costs_from engine borrows from
// its lender once every catalog file is read.
#include <algorithm>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "icx/base/error.hpp"
#include "icx/catalog/catalog.hpp"

namespace icx {

namespace {

/// Calls `visit` with `figure`'s member of each of the costs given.
template <typename Visit, typename... Costs>
void with_figure(std::string_view figure, Visit visit, Costs&... costs) {
  if (figure == "step_us") {
    visit(costs.step...);
  } else if (figure == "layer_us") {
    visit(costs.layer...);
  } else if (figure == "request_us") {
    visit(costs.request...);
  } else if (figure == "sequence_us") {
    visit(costs.sequence...);
  } else if (figure == "prefill_step_us") {
    visit(costs.prefill_step...);
  } else if (figure == "prefill_pass_scale") {
    visit(costs.prefill_pass_scale...);
  } else if (figure == "prompt_scale") {
    visit(costs.prompt_scale...);
  } else if (figure == "context_walk_bytes") {
    visit(costs.context_walk...);
  } else {
    throw std::logic_error(fmt::format("'{}' is not an engine cost figure", figure));
  }
}

} // namespace

void copy_engine_cost(std::string_view figure, EngineCosts& to, const EngineCosts& from) {
  with_figure(
      figure, [](auto& into, const auto& value) { into = value; }, to, from);
}

bool engine_cost_counts(std::string_view figure, const EngineCosts& costs) {
  bool counts = false;
  with_figure(
      figure,
      [&]<typename Figure>(const Figure& value) {
        if constexpr (std::is_same_v<Figure, double>) {
          counts = value != 1; // a scale
        } else {
          counts = value.value() > 0;
        }
      },
      costs);
  return counts;
}

void Catalog::borrow_engine_costs() {
  for (Engine& engine : entries_.engines) {
    if (engine.costs_from.empty()) {
      continue;
    }
    const auto lender = std::ranges::find(entries_.engines, engine.costs_from, &Engine::id);
    if (lender == entries_.engines.end() || lender->id == engine.id) {
      throw CatalogError(fmt::format("{}: engine '{}': costs_from '{}' is not another engine's "
                                     "id; name the engine whose costs stand for this one's",
                                     engine.origin, engine.id, engine.costs_from));
    }
    if (!lender->costs_from.empty()) {
      throw CatalogError(fmt::format("{}: engine '{}': costs_from '{}' borrows its own costs from "
                                     "'{}'; name an engine with costs of its own",
                                     engine.origin, engine.id, engine.costs_from,
                                     lender->costs_from));
    }
    for (const std::string& figure : engine.borrowed_costs) {
      copy_engine_cost(figure, engine.costs, lender->costs);
    }
  }
}

} // namespace icx
