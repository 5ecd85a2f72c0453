// icx tp: tensor-parallel all-reduce traffic of a prefill pass or a decode step, its time on
// each wire under the headline and expected models, and a verdict against compute.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "commands/commands.hpp"
#include "icx/base/limits.hpp"
#include "icx/base/units_format.hpp"
#include "icx/reports/tp.hpp"
#include "icx/util/spelling.hpp"
#include "icx/util/table.hpp"
#include "icx/util/text.hpp"
#include "options/common.hpp"
#include "options/serving.hpp"
#include "output/output.hpp"
#include "output/terminal.hpp"
#include "sweeps/tp.hpp"

namespace icx::cli {

namespace {

struct TpOptions {
  CommonOptions common;
  ModelOptions model;
  ComputeOptions compute;
  ServingOptions serving;
  std::optional<int> gpus;
  std::vector<std::string> wires;
  SweepOptions sweep;
};

/// Moves the wires that have no figures for the engine kernels --impl names to the skipped
/// ones: an NCCL time is never labelled as the engine's kernel.
void skip_without_kernels(WireChoice& choice, Implementation implementation) {
  std::vector<const Link*> usable;
  for (const Link* link : choice.usable) {
    if (const Check check = check_implementation(*link, Collective::all_reduce, implementation);
        !check) {
      choice.skipped.push_back(
          {link, fmt::format("--impl {}: {}", to_string(implementation), check.reason())});
    } else {
      usable.push_back(link);
    }
  }
  choice.usable = std::move(usable);
}

/// The wires --wire names, each checked against --gpu, --gpus and --impl; without --wire (or
/// with 'all'), every link the group can use, with the others listed as skipped.
WireChoice choose_wires(const Catalog& catalog, const TpOptions& options,
                        const TpRequest& request) {
  const bool every =
      options.wires.empty() ||
      std::ranges::any_of(options.wires, [](const auto& id) { return fold_case(id) == "all"; });
  WireChoice choice =
      wires_for_group(request.gpu, options.gpus, links_named(catalog, "--wire", options.wires));
  skip_without_kernels(choice, request.serving.setup.implementation);
  if (!every && !choice.skipped.empty()) {
    const SkippedWire& first = choice.skipped.front();
    throw UsageError(fmt::format("--wire {}: {}", first.link->id, first.reason));
  }
  if (choice.usable.empty()) {
    throw UsageError(
        fmt::format("--wire: no link can carry this group; {}", choice.skipped.front().reason));
  }
  return choice;
}

/// The share of the step the exposed all-reduces take, "45 %".
std::string comm_share(const Placement& p) {
  return format_share(p.step.exposed_comm, p.step.stage);
}

std::string bandwidth_label(const Link& link) {
  return fmt::format("{} {}", format_range(link.headline_bandwidth),
                     link.headline_convention == Convention::both_directions_summed ? "both ways"
                                                                                    : "each way");
}

void print_header(const ResolvedModel& model, const TpRequest& request) {
  print_out("Tensor-parallel all-reduce traffic per GPU\n");
  const Dtype& act = *request.serving.act_dtype;
  print_out("model   {}: hidden {}, {} layers, {} weights, {} activations ({} B per element){}\n",
            model.model.id, model.model.hidden, model.model.layers, model.dtype.id, act.id,
            act.bytes_per_element, overridden_suffix(model));
  const ServingRequest& serving = request.serving;
  if (serving.phase == Phase::prefill) {
    const std::int64_t prompts = serving.batch.value_or(1);
    print_out("tokens  {} (one prefill pass{})\n\n", request.tokens(),
              prompts > 1 ? fmt::format(": {} prompts × {}", prompts, serving.tokens) : "");
  } else {
    print_out("batch   {} at {} tokens of context, one token each (one decode step)\n\n",
              counted(request.tokens(), "sequence"), serving.context);
  }
}

void print_traffic(const Style& style, const TpReport& report) {
  TextTable table({{"traffic", Align::left}, {"bytes", Align::right}, {"from", Align::left}});
  for (const TpTrafficTerm& term : report.traffic_terms) {
    table.add_row({term.quantity, format_bytes(term.bytes), term.from});
  }
  print_out("{}\n", fit_table(style, table));
}

void print_wires(const Style& style, const TpReport& report) {
  TextTable table({{"wire", Align::left},
                   {"tier", Align::left, 6},
                   {"headline bandwidth", Align::left, 4},
                   {"headline", Align::right, 3},
                   {"", Align::left, 7},
                   {"expected", Align::right},
                   {"crossover", Align::right, 5},
                   {"compute on", Align::left, 2},
                   {std::string(latency_name(report.request.phase())), Align::right},
                   {"comm", Align::right},
                   {"verdict", Align::left}});
  double slowest = 0;
  for (const TpWire& w : report.wires) {
    slowest = std::max(slowest, w.headline.low.value());
  }
  for (const TpWire& w : report.wires) {
    // A PCIe wire names the topology its expected time assumes.
    const std::string wire =
        w.topology ? fmt::format("{} ({})", w.link->id, w.topology->id) : w.link->id;
    table.add_row({wire, std::string(to_string(w.link->tier)), bandwidth_label(*w.link),
                   format_range(w.headline), bar(style, w.headline.low.value(), slowest, bar_width),
                   w.expected ? format_seconds(*w.expected) : "-",
                   w.crossover ? format_bytes(*w.crossover) : "-",
                   fmt::format("{} × {}", w.gpus, w.gpu->id),
                   w.judged ? format_seconds(w.judged->placement.step.latency) : "-",
                   w.judged ? comm_share(w.judged->placement) : "-",
                   w.judged ? paint(style, w.judged->verdict.level) : "-"});
  }
  print_out("{}\n", fit_table(style, table));
}

/// The wires left out: each with its reason when the user named them (--wire all), else one
/// line, as they are the wires the GPU has no link for.
void print_skipped(const TpReport& report, bool named) {
  if (report.skipped.empty()) {
    return;
  }
  if (named || report.request.gpu == nullptr) {
    for (const SkippedWire& wire : report.skipped) {
      print_out("not shown: {}: {}\n", wire.link->id, wire.reason);
    }
    return;
  }
  std::vector<std::string> ids;
  for (const SkippedWire& wire : report.skipped) {
    ids.push_back(wire.link->id);
  }
  print_out("not shown: {} (not links of {}; --wire all shows every wire on its own GPU, --gpu "
            "another GPU's)\n",
            fmt::join(ids, ", "), report.request.gpu->id);
}

void print_report(const Style& style, const ResolvedModel& model, const TpReport& report,
                  bool named_wires) {
  print_header(model, report.request);
  print_traffic(style, report);
  print_wires(style, report);
  for (const std::string& line : style.explain ? report.legend.lines : report.legend.short_lines) {
    print_out("{}\n", line);
  }
  // Why each wire got its verdict: with --explain, or when the user named the wires.
  for (const TpWire& w : report.wires) {
    if (w.judged && (style.explain || named_wires)) {
      print_out("  {}: {}\n", w.link->id, w.judged->verdict.reason);
    }
  }
  if (!style.explain) {
    print_out("--explain: how each figure is computed, what is assumed{}\n",
              named_wires ? "" : " and why each wire got its verdict");
  }
  print_skipped(report, named_wires);
}

TpRequest request_of(const TpOptions& options, const Catalog& catalog, const ResolvedModel& model) {
  const ServingRequest serving = with_default_dtypes(
      catalog, model.dtype, serving_request(catalog, options.serving, options.compute.mfu));
  TpRequest request = tp_request_for(model.model, model.dtype, *serving.act_dtype);
  request.overridden = model.overridden;
  request.serving = serving;
  request.gpus = options.gpus;
  if (!options.compute.gpu.empty()) {
    request.gpu =
        &for_flag("--gpu", [&]() -> const Gpu& { return catalog.gpu(options.compute.gpu); });
  } else if (options.wires.empty()) {
    // No wire and no GPU named: the wires a group of the reference GPU can use, not every
    // wire on its own GPU (--wire all).
    request.gpu = &reference_gpu(catalog);
  }
  return request;
}

int run_tp(const TpOptions& options) {
  const Style style = style_of(options.common);
  check_sweep_flags(options.sweep, style, !options.sweep.sweep.empty(),
                    "--sweep tokens=256:65536:x2");
  const std::optional<Sweep> sweep = sweep_of(options.sweep, tp_sweep_params);
  if (sweep && sweep->param == SweepParam::gpus && options.gpus) {
    throw UsageError(
        fmt::format("--sweep {}: sets the group size; drop --gpus {}", sweep->text, *options.gpus));
  }
  const Catalog catalog = load_catalog(options.common);
  const ResolvedModel model = resolve_model(catalog, options.model);
  const TpRequest request = request_of(options, catalog, model);
  const WireChoice wires = choose_wires(catalog, options, request);
  if (sweep) {
    check_tp_sweep_size(*sweep, wires);
    SweepWriter out(style, options.sweep);
    out.finish(tp_sweep(catalog, request, wires, *sweep, out));
    return 0;
  }
  TpReport report;
  try {
    report = tensor_parallel_report(catalog, request, wires);
  } catch (const GroupError& error) {
    const std::string flag =
        options.gpus ? fmt::format("--gpus {}", *options.gpus) : std::string("--gpus");
    throw UsageError(fmt::format("{}: {}", flag, error.what()));
  }
  emit(style, report, "wires", style.explain ? report.derivations : Derivations{},
       [&] { print_report(style, model, report, !options.wires.empty()); });
  return 0;
}

} // namespace

Command setup_tp(CLI::App& app) {
  auto options = std::make_shared<TpOptions>();
  CLI::App* sub = app.add_subcommand(
      "tp", "Tensor-parallel all-reduce traffic of a prefill pass or decode step, its time on "
            "each wire (headline and expected), and a verdict against compute");
  add_model_options(*sub, options->model);
  add_serving_options(*sub, options->serving);
  sub->add_option("-w,--wire", options->wires,
                  "Link ids or aliases, space- or comma-separated (see 'icx links'); none: the "
                  "links a group of --gpu (default: the catalog's reference GPU) can use; 'all': "
                  "every link, each on its own GPU; fastest first")
      ->type_name("ID")
      ->delimiter(',');
  sub->add_option("-g,--gpus", options->gpus,
                  "GPUs in the tensor-parallel group; default: the GPU's scale-up domain")
      ->type_name("N")
      ->transform(whole_number(1, limits::max_domain));
  add_compute_options(*sub, options->compute);
  add_sweep_options(*sub, options->sweep, tp_sweep_params);
  add_explain_option(*sub, options->common);
  add_common_options(*sub, options->common);
  sub->footer("Examples:\n"
              "  icx tp --model 70b --tokens 4096 --wire pcie5\n"
              "  icx tp --model 70b --tokens 4096 --wire nvlink4,pcie5 --json\n"
              "  icx tp --model 70b --phase decode --batch 32 --wire nvlink4 --gpus 8\n"
              "  icx tp --model 70b --wire pcie5 --objective throughput\n"
              "  icx tp --model 70b --wire pcie5 --gpu l40s --gpus 4\n"
              "  icx tp --model 70b --wire pcie5 --pcie-topology switch\n"
              "  icx tp --model 70b --phase decode --wire nvlink4 --impl nccl\n"
              "  icx tp --hidden 8192 --layers 80 --params 70e9 --dtype bf16 --tokens 4096\n"
              "  icx tp --model 70b --dtype fp8 --wire all      (every wire, fastest first)\n"
              "  icx tp --model 70b --wire pcie5 --explain\n"
              "  icx tp --model 70b --wire nvlink4,pcie5,ib-ndr --sweep tokens=256:65536:x2 "
              "--plot tp.svg\n"
              "  icx tp --model 70b --phase decode --wire nvlink4,pcie5 --sweep batch=1:256\n"
              "  icx tp --model 70b --format csv > wires.csv");
  return {sub, [options] { return run_tp(*options); }};
}

} // namespace icx::cli
