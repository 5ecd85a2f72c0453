// What an engine takes from another once every catalog file is read: the figures a costs_from
// engine borrows, copied from its lender, and the lender a kernels_from engine names.
#include <algorithm>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

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

/// What an engine takes from another, for the errors that name it.
struct Borrowing {
  std::string_view key;     ///< the entry's field: "kernels_from"
  std::string_view role;    ///< what the lender is to it: "whose kernels this one calls"
  std::string_view chained; ///< a lender that borrows too: "takes its own kernels from"
  std::string_view own;     ///< what a lender must have of its own: "kernels"
};

/// The engine `id` names for `engine`: another engine, one that borrows nothing of the kind
/// (`chain`) itself. Throws CatalogError naming the field.
const Engine& lender_of(std::span<const Engine> engines, const Engine& engine,
                        const std::string& id, std::string Engine::*chain, const Borrowing& b) {
  const auto lender = std::ranges::find(engines, id, &Engine::id);
  if (lender == engines.end() || lender->id == engine.id) {
    throw CatalogError(fmt::format("{}: engine '{}': {} '{}' is not another engine's id; name "
                                   "the engine {}",
                                   engine.origin, engine.id, b.key, id, b.role));
  }
  if (const std::string& further = (*lender).*chain; !further.empty()) {
    throw CatalogError(fmt::format("{}: engine '{}': {} '{}' {} '{}'; name an engine with {} of "
                                   "its own",
                                   engine.origin, engine.id, b.key, id, b.chained, further, b.own));
  }
  return *lender;
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
    const Engine& lender = lender_of(
        entries_.engines, engine, engine.costs_from, &Engine::costs_from,
        {"costs_from", "whose costs stand for this one's", "borrows its own costs from", "costs"});
    for (const std::string& figure : engine.borrowed_costs) {
      copy_engine_cost(figure, engine.costs, lender.costs);
    }
  }
}

void Catalog::check_kernels_from(const Engine& engine) const {
  if (!engine.kernels_from.empty()) {
    lender_of(
        engines(), engine, engine.kernels_from, &Engine::kernels_from,
        {"kernels_from", "whose kernels this one calls", "takes its own kernels from", "kernels"});
  }
}

} // namespace icx
