// icx topo: reads a node's `nvidia-smi topo -m` or `rocm-smi --showtopo` output, says what its
// wiring means for collectives and NICs, and writes it as a catalog system (-o).
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "icx/base/error.hpp"
#include "icx/base/limits.hpp"
#include "icx/reports/topo.hpp"
#include "icx/util/text_file.hpp"
#include "options/common.hpp"
#include "options/files.hpp"
#include "options/size.hpp"
#include "output/json.hpp"
#include "output/output.hpp"
#include "views/topo.hpp"

namespace icx::cli {

namespace {

struct TopoOptions {
  CommonOptions common;
  std::string file;
  std::string gpu;
  std::string system;
  std::string pcie;
  std::string scale_out;
  std::optional<int> domain;
  std::string size = "64MiB";
  std::optional<std::string> output;
  std::string id;
};

/// The file's text, or standard input's for "-", at most the topology file limit.
std::string read_input(const std::string& file) {
  const FileKind kind{"a topology report", limits::max_topo_file_bytes};
  return file == "-" ? read_standard_input(kind) : read_text_file(file, kind);
}

const Link* link_flag(const Catalog& catalog, const std::string& flag, const std::string& id) {
  return id.empty() ? nullptr : &for_flag(flag, [&]() -> const Link& { return catalog.link(id); });
}

/// --pcie, else the system's host link, else the GPU's own link when that is PCIe.
const Link* pcie_link(const Catalog& catalog, const TopoOptions& o, const System* base,
                      const Gpu* gpu) {
  const Link* pcie = link_flag(catalog, "--pcie", o.pcie);
  if (pcie != nullptr && pcie->tier != Tier::host) {
    throw UsageError(fmt::format("--pcie {}: a {} link; name a host link (pcie4, pcie5)", o.pcie,
                                 to_string(pcie->tier)));
  }
  if (pcie == nullptr && base != nullptr && base->host) {
    pcie = &catalog.link(base->host->link);
  }
  if (pcie == nullptr && gpu != nullptr && catalog.link(gpu->scale_up_link).tier == Tier::host) {
    pcie = &catalog.link(gpu->scale_up_link);
  }
  return pcie;
}

/// The GPU a product name printed beside the matrix names, when the catalog knows it.
const Gpu* gpu_in_text(const Catalog& catalog, std::string_view text, std::string& from) {
  const std::optional<GpuMention> mention = gpu_mentioned(text);
  if (!mention) {
    return nullptr;
  }
  for (const std::string& candidate : mention->candidates) {
    try {
      const Gpu& gpu = catalog.gpu(candidate);
      from = fmt::format("line {}: {}", mention->line, mention->product);
      return &gpu;
    } catch (const LookupError&) {
      continue;
    }
  }
  from =
      fmt::format("line {} names '{}', which the catalog lacks", mention->line, mention->product);
  return nullptr;
}

/// --gpu, else --system's GPU, else one the file names.
void set_gpu(const Catalog& catalog, const TopoOptions& o, const System* base,
             std::string_view text, TopoReportRequest& request) {
  if (!o.gpu.empty()) {
    request.gpu = &for_flag("--gpu", [&]() -> const Gpu& { return catalog.gpu(o.gpu); });
    request.gpu_from = "--gpu";
  } else if (base != nullptr) {
    request.gpu = &catalog.gpu(base->gpu);
    request.gpu_from = "--system " + base->id;
  } else {
    request.gpu = gpu_in_text(catalog, text, request.gpu_from);
  }
}

TopoReportRequest request_of(const Catalog& catalog, const TopoOptions& o, std::string_view text) {
  TopoReportRequest request;
  request.file = o.file == "-" ? "standard input" : o.file;
  const System* base = o.system.empty() ? nullptr : &for_flag("--system", [&]() -> const System& {
    return catalog.system(o.system);
  });
  set_gpu(catalog, o, base, text, request);
  request.pcie = pcie_link(catalog, o, base, request.gpu);
  const std::optional<Bytes> size = size_value(o.size);
  if (!size) {
    throw UsageError(size_error("--size", o.size));
  }
  request.size = *size;
  if (o.output) {
    if (o.id.empty()) {
      throw UsageError("--id: -o writes a catalog system and needs its id, e.g. --id my-node");
    }
    TopoSystemRequest system{o.id,         request.file, request.gpu, base,
                             request.pcie, nullptr,      o.domain};
    system.scale_out = link_flag(catalog, "--scale-out", o.scale_out);
    if (system.scale_out == nullptr && base != nullptr) {
      system.scale_out = &catalog.link(base->scale_out_link);
    }
    request.system = system;
  } else if (!o.id.empty() || o.domain || !o.scale_out.empty()) {
    throw UsageError("--id, --domain and --scale-out describe the system -o writes: add -o FILE");
  }
  return request;
}

/// Checks the overlay against the catalog it joins, then writes it whole.
void write_overlay(const Catalog& catalog, const TopoOptions& o, const TopoSystem& system) {
  const std::string text = topo_overlay(system).dump(2) + "\n";
  Catalog joined = catalog;
  joined.overlay_text(text, *o.output);
  std::vector<std::filesystem::path> inputs(o.common.catalogs.begin(), o.common.catalogs.end());
  if (o.file != "-") {
    inputs.emplace_back(o.file);
  }
  try {
    write_text_file_atomically(*o.output, text, inputs);
  } catch (const InputError& error) {
    throw InputError(fmt::format("-o{}{}", o.output->empty() ? ": " : " ", error.what()));
  }
}

int run_topo(const TopoOptions& options) {
  const Catalog catalog = load_catalog(options.common);
  const std::string text = read_input(options.file);
  const TopoReportRequest request = request_of(catalog, options, text);
  // What the matrix says, and what it contradicts (a GPU it cannot be of), is the file's.
  TopoReport report;
  try {
    report = topo_report(catalog, describe_topology(parse_topo(text)), request);
  } catch (const InputError& error) {
    throw InputError(fmt::format("{}: {}", request.file, error.what()));
  }
  if (report.system) {
    write_overlay(catalog, options, *report.system);
  }
  const Style style = style_of(options.common);
  emit(style, Json(report), "pairs", {},
       [&] { print_topo(style, report, options.output, options.id); });
  return 0;
}

} // namespace

Command setup_topo(CLI::App& app) {
  auto options = std::make_shared<TopoOptions>();
  CLI::App* sub = app.add_subcommand(
      "topo",
      "Read a node's nvidia-smi topo -m (or rocm-smi --showtopo) output: its NVLink "
      "domains, PCIe paths, NICs and NUMA nodes, what they cost, and a catalog system (-o)");
  sub->add_option("file", options->file, "The tool's output as printed; - reads standard input")
      ->type_name("FILE")
      ->check(input_file("FILE"))
      ->required();
  sub->add_option("--gpu", options->gpu,
                  "The GPU (the matrix names none): what NV<n> means in bandwidth; default: "
                  "--system's")
      ->type_name("ID");
  sub->add_option("--system", options->system,
                  "The catalog system this node is one of: its GPU, PCIe link, NICs' link, "
                  "rails, host side, price, and the NVLink domain beyond one tray (GB200)")
      ->type_name("ID");
  sub->add_option("--pcie", options->pcie,
                  "The GPUs' PCIe link (pcie4, pcie5); default: --system's host link, or the "
                  "GPU's own when it has no NVLink")
      ->type_name("LINK");
  sub->add_option("--size", options->size,
                  "All-reduce message priced across sockets (a 70B model's activations for "
                  "4,096 tokens in BF16 are 64 MiB)")
      ->type_name("SIZE")
      ->default_str(options->size);
  sub->add_option("-o,--output", options->output,
                  "Write the node as a catalog system (a --catalog file) for place and plan")
      ->type_name("FILE")
      ->check(output_file("-o"));
  sub->add_option("--id", options->id, "The system's id in the -o file")->type_name("ID");
  sub->add_option("--scale-out", options->scale_out,
                  "With -o: one NIC's link between nodes; default: --system's")
      ->type_name("LINK");
  sub->add_option("--domain", options->domain,
                  "With -o: GPUs in one NVLink domain when the matrix shows part of it (a GB200 "
                  "tray of an NVL72 rack: 72); default: --system's")
      ->type_name("N")
      ->transform(whole_number(1, limits::max_domain));
  add_common_options(*sub, options->common);
  sub->footer("Examples:\n"
              "  icx topo topo.txt --system dgx-h100 -o mine.json --id mine\n"
              "  nvidia-smi topo -m | icx topo - --gpu h100\n"
              "  icx place --model 70b --catalog mine.json --system mine\n"
              "  icx topo a30-node.txt --gpu a30 --pcie pcie4 --scale-out roce -o a30.json --id "
              "a30-node --json");
  return {sub, [options] { return run_topo(*options); }};
}

} // namespace icx::cli
