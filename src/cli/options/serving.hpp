// The flags of a serving step, shared by 'icx tp' and 'icx place': the phase and its sizes,
// the objective, the dtypes that cross the wire and fill the KV cache, and the engine
// assumptions icx cannot know.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "icx/catalog/catalog.hpp"
#include "icx/memory/hbm.hpp"
#include "icx/serving/step_model.hpp"
#include "options/model.hpp"
#include "options/run_setup.hpp"

namespace icx::cli {

struct ServingOptions {
  Phase phase = Phase::prefill;
  std::optional<std::int64_t> tokens;
  std::optional<std::int64_t> batch;
  std::optional<std::int64_t> context;
  std::optional<std::int64_t> max_batch;
  std::optional<std::string> engine;
  /// --emit ENGINE: the engine to write the launch command for (and to price, when --engine
  /// is not given).
  std::optional<std::string> emit;
  Objective objective = Objective::latency;
  std::string act_dtype;
  std::string kv_dtype;
  double overlap = 0;
  std::optional<double> hbm_fraction;
  std::string tuning;
  std::optional<double> reserve;
  /// --spec KIND:ACCEPTANCE[:DRAFTS], as given; empty: no speculative decoding.
  std::string spec;
  RunSetupOptions setup;
};

/// --phase, --tokens, --batch, --context, --objective, --act-dtype, --kv-dtype, --overlap,
/// --hbm-fraction, --engine, --max-batch, --reserve, --impl (default: the engine's) and
/// --pcie-topology.
void add_serving_options(CLI::App& app, ServingOptions& options);

/// -b,--batch N, sequences: one spelling, type name and range for every command that takes
/// a batch; `help` says what the batch is there.
CLI::Option* add_batch_option(CLI::App& app, std::optional<std::int64_t>& batch,
                              const std::string& help);

/// --context N, tokens per sequence in the KV cache, likewise.
CLI::Option* add_context_option(CLI::App& app, std::optional<std::int64_t>& context,
                                const std::string& help);

/// --hbm-fraction FRACTION: one spelling, range and help for every command that prices HBM
/// reads.
CLI::Option* add_hbm_fraction_option(CLI::App& app, std::optional<double>& fraction);

/// --tuning ID; `sets` says what the setup decides in the command ("it sets ...").
CLI::Option* add_tuning_option(CLI::App& app, std::string& tuning, std::string_view sets);

/// --tuning's id, checked against the setups the catalog names for any GPU (a GPU without that
/// setup is priced by its own figures, as the assumptions then say). Throws UsageError naming
/// the setups there are when no GPU names `id`.
std::string tuning_flag(const Catalog& catalog, const std::string& id);

/// --engine, --max-batch, --act-dtype, --kv-dtype, --overlap, --hbm-fraction, --reserve, --impl
/// and --pcie-topology: what the engine does, for commands whose load decides the step (plan).
void add_engine_options(CLI::App& app, ServingOptions& options);

/// --emit ENGINE, for the commands that choose a layout (place, plan).
void add_emit_option(CLI::App& app, ServingOptions& options);

/// Whether --emit was given for a model it can name a checkpoint of: a catalog model as
/// published, or a --hf-config one (its directory). Throws UsageError when --emit comes with a
/// flag that changed the catalog model (its checkpoint would not be what was priced).
bool emits_launch(const ServingOptions& options, const ResolvedModel& model);

/// The request the flags describe for weights in `dtype` (--mfu given as `utilization`).
/// Throws UsageError for a flag of the other phase.
ServingRequest serving_request(const Catalog& catalog, const ServingOptions& options,
                               std::optional<double> utilization);

} // namespace icx::cli
