#include "options/ep.hpp"

#include "options/common.hpp"

namespace icx::cli {

void add_ep_options(CLI::App& app, EpOptions& o, const std::string& mode_flag,
                    const std::string& mode_help) {
  const std::size_t first = app.get_options().size();
  app.add_option_function<int>(
         mode_flag, [&o](int mode) { o.mode = static_cast<EpMode>(mode); }, mode_help)
      ->type_name("MODE")
      ->transform(enum_choice<EpMode>("expert-parallel mode"));
  app.add_option("--dispatch-dtype", o.dispatch_dtype,
                 "What an expert-parallel dispatch sends; default fp8 with its scales (DeepEP's "
                 "FP8 dispatch), the activations' dtype for NCCL's all-to-all")
      ->type_name("ID");
  app.add_option("--max-nodes-per-token", o.routing.max_nodes_per_token,
                 "Each token's experts lie on at most N nodes (DeepEP's node-limited routing); "
                 "default: as the model's expert groups and their placement imply")
      ->type_name("N")
      ->transform(whole_number(1, limits::max_domain));
  app.add_option("--skew", o.routing.skew,
                 "The busiest GPU's expert traffic and work as a multiple of the mean (hot "
                 "experts); default 1: uniform routing")
      ->type_name("FACTOR")
      ->transform(decimal_number(limits::skew));
  app.add_option("--redundant-experts", o.routing.redundant_experts,
                 "Extra replicas of hot experts spread over the expert group (DeepSeek's EPLB); "
                 "the group must divide experts + N")
      ->type_name("N")
      ->transform(whole_number(0, limits::max_experts));
  group_options_from(app, first, "Expert parallel");
}

const Dtype* dispatch_dtype(const Catalog& catalog, const EpOptions& o) {
  if (o.dispatch_dtype.empty()) {
    return nullptr;
  }
  return &for_flag("--dispatch-dtype",
                   [&]() -> const Dtype& { return catalog.dtype(o.dispatch_dtype); });
}

} // namespace icx::cli
