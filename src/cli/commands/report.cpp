// icx report: one self-contained HTML page for a deployment design review: the deployment,
// its ranked layouts, the curves over prompt tokens and the cold-start path.
#include <memory>
#include <string>

#include <fmt/format.h>

#include "commands/app.hpp"
#include "commands/commands.hpp"
#include "icx/util/text_file.hpp"
#include "options/common.hpp"
#include "options/files.hpp"
#include "options/place.hpp"
#include "output/output.hpp"
#include "output/terminal.hpp"
#include "page/page.hpp"
#include "page/sections.hpp"

namespace icx::cli {

namespace {

struct ReportOptions {
  PlaceOptions place;
  std::string output;
};

void check_output(const ReportOptions& options, const Style& style) {
  if (options.output.empty()) {
    if (style.format == Format::json) {
      return;
    }
    throw UsageError("--output: required: the HTML file to write, e.g. -o review.html (or "
                     "--json for the page's contents)");
  }
  const std::string& path = options.output;
  const auto dot = path.rfind('.');
  const std::string ext = dot == std::string::npos ? "" : path.substr(dot);
  if (ext != ".html" && ext != ".htm") {
    throw UsageError(fmt::format("--output {}: the page is HTML; name it FILE.html", path));
  }
}

int run_report(const ReportOptions& options) {
  const PlaceOptions& o = options.place;
  const Style style = style_of(o.common);
  if (style.format == Format::csv) {
    throw UsageError("--format csv: the report is a page of several tables; use --json");
  }
  check_output(options, style);
  const Catalog catalog = load_catalog(o.common);
  const ResolvedModel model = resolve_model(catalog, o.model);
  ClusterRequest cluster;
  const PlaceRequest request = place_request(catalog, o, model, &cluster);
  const PlaceReport report = place_report_of(catalog, request);
  const ReportInputs in{catalog, model, request, cluster, report, o.top};
  ReportPage page{
      fmt::format("Deployment review: {} on {}", model.model.id,
                  report.system != nullptr
                      ? report.system->id
                      : fmt::format("{} × {}", report.cluster.gpus, report.cluster.gpu->id)),
      "icx report: every figure from the icx catalog and the models of icx place, tp "
      "and coldstart",
      {deployment_section(in), layouts_section(in), curves_section(in), coldstart_section(in)},
      provenance_footer(in)};
  if (!options.output.empty()) {
    if (!draw_charts(page)) {
      print_stderr_line("icx: warning: gnuplot was not found: the page has every table but no "
                        "charts; install gnuplot (Debian: sudo apt-get install gnuplot-nox)");
    }
    write_text_file_atomically(options.output, render_html(page), {});
  }
  const RankedLayout& chosen = report.chosen_layout();
  emit(style, report_document(page), "sections", {}, [&] {
    print_out("wrote {}\n", options.output);
    print_out("layout  {} (#{} of {}): {}\n", layout_name(chosen.placement.layout),
              report.chosen + 1, report.ranked.size(), to_string(chosen.verdict.level));
  });
  return 0;
}

} // namespace

Command setup_report(CLI::App& app) {
  auto options = std::make_shared<ReportOptions>();
  CLI::App* sub = app.add_subcommand(
      "report", "One self-contained HTML page for a deployment design review: the deployment, "
                "its ranked layouts, curves over prompt tokens and the cold-start path");
  add_place_options(*sub, options->place);
  sub->add_option("-o,--output", options->output,
                  "The HTML file to write (required unless --json), whole or not at all")
      ->type_name("FILE.html")
      ->check(output_file("-o"));
  add_common_options(*sub, options->place.common);
  sub->footer("Examples:\n"
              "  icx report --model 70b --system dgx-h100 -o review.html\n"
              "  icx report --model 405b --system dgx-h100 --gpus 16 -o review.html\n"
              "  icx report --model 70b --system dgx-h100 --json\n\n"
              "The charts need gnuplot (Debian: gnuplot-nox); without it the page has every "
              "table and says how to install it.");
  return {sub, [options] { return run_report(*options); }};
}

} // namespace icx::cli
