#include "icx/words/launch.hpp"

#include <algorithm>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "icx/words/engine.hpp"

namespace icx {

namespace {

/// The engine's own words for its group's flags.
std::string expert_reason(const LaunchCommand& c) {
  const Layout& l = c.layout;
  if (l.ep == 1 && (l.expert_tp() == 1 || c.style == LaunchStyle::vllm)) {
    return fmt::format("experts held whole and spread over the tensor group's {} GPUs (EP {}), "
                       "attention tensor parallel",
                       l.tp, l.tp);
  }
  if (l.ep == 1) {
    return fmt::format("experts split {} ways and spread over {} ranks of the tensor group (EP "
                       "{}), attention tensor parallel over all {}",
                       l.expert_tp(), l.expert_ranks(), l.expert_ranks(), l.tp);
  }
  switch (c.style) {
  case LaunchStyle::vllm:
    return "experts held apart across the group's GPUs instead of split tensor-parallel";
  case LaunchStyle::sglang:
    return fmt::format("experts held apart across all {} GPUs of the group (EP {})", l.tp * l.ep,
                       l.ep);
  case LaunchStyle::trtllm:
    break;
  }
  if (l.tp == 1) {
    return fmt::format("{} ranks hold the experts apart (EP {})", l.ep, l.ep);
  }
  return fmt::format("{} ranks hold the experts apart, each splitting its share {} ways (EP {})",
                     l.ep, l.tp, l.ep);
}

std::string limits_scope(const LaunchCommand& c) {
  if (c.layout.ep == 1) {
    return "per replica";
  }
  return c.style == LaunchStyle::sglang ? "over the group's attention ranks, divided among them"
                                        : "per attention rank";
}

std::string reason(const LaunchArg& arg, const LaunchCommand& c) {
  const Layout& l = c.layout;
  switch (arg.why) {
  case LaunchWhy::tensor:
    return fmt::format("each replica's tensor group (TP {})", l.tp);
  case LaunchWhy::group_tensor:
    return fmt::format("every GPU of the expert group, as the engine counts it (TP {} × EP {})",
                       l.tp, l.ep);
  case LaunchWhy::pipeline:
    return fmt::format("each replica's pipeline stages (PP {})", l.pp);
  case LaunchWhy::attention_ranks:
    return fmt::format("the expert group's ranks, each running attention for its own sequences "
                       "(EP {})",
                       l.ep);
  case LaunchWhy::attention_dp:
    return "data-parallel attention across the expert group, as icx priced it";
  case LaunchWhy::expert_parallel:
    return expert_reason(c);
  case LaunchWhy::expert_kernels:
    return "DeepEP's dispatch and combine, the kernels icx priced (--ep-mode)";
  case LaunchWhy::max_batch:
    return fmt::format("most sequences in flight {}, as icx priced them (--max-batch)",
                       limits_scope(c));
  case LaunchWhy::token_budget:
    return fmt::format("prompt tokens one step takes {}, as icx priced them (--prefill-chunk)",
                       limits_scope(c));
  case LaunchWhy::kv_dtype:
    return "the KV cache dtype icx priced (--kv-dtype)";
  case LaunchWhy::quantization:
    return "FP8 weights quantized on load: the catalog has no FP8 checkpoint of the model";
  case LaunchWhy::multi_node:
    return c.style == LaunchStyle::vllm
               ? fmt::format("one server over {} nodes of a Ray cluster", c.nodes_per_server)
               : fmt::format("the {} nodes one server spans", c.nodes_per_server);
  case LaunchWhy::node_rank:
    return c.nodes_per_server == 2
               ? std::string("0 on the first node, 1 on the second")
               : fmt::format("0 on the first node, 1 to {} on the others", c.nodes_per_server - 1);
  case LaunchWhy::first_node:
    return "where the nodes meet: set FIRST_NODE to the address of the node of rank 0";
  case LaunchWhy::options_file:
    return fmt::format("the settings written to {} above", launch_options_file);
  case LaunchWhy::speculation:
    return "speculative decoding as icx priced it: the drafts a step, checked in one pass "
           "(--spec)";
  case LaunchWhy::draft_chain:
    return "one chain of drafts, no tree, as icx priced them";
  case LaunchWhy::draft_model:
    return fmt::format("the EAGLE draft's checkpoint: set {} to it", draft_model_variable);
  }
  return {};
}

std::string caveat(LaunchCaveat what, const LaunchCommand& c) {
  const Layout& l = c.layout;
  switch (what) {
  case LaunchCaveat::experts_over_group:
    return fmt::format("the engine holds the experts whole across all {} GPUs of the group; "
                       "icx priced {} ranks each splitting theirs {} ways (the same bytes per "
                       "GPU, other collectives; --moe-tp 1 prices what the engine runs)",
                       l.tp * l.ep, l.expert_ranks(), l.expert_tp());
  case LaunchCaveat::attention_without_tensor:
    return fmt::format("TensorRT-LLM's attention data parallelism gives each of the {} GPUs its "
                       "own attention; icx priced {} ranks of TP {}, so each GPU's limits are "
                       "a rank's over {}",
                       l.tp * l.ep, l.ep, l.tp, l.tp);
  case LaunchCaveat::default_all_to_all:
    return fmt::format("vLLM {} dispatches to the experts with its default all-to-all; icx "
                       "priced DeepEP's kernels, which later vLLM selects with "
                       "--all2all-backend",
                       c.engine->version);
  case LaunchCaveat::draft_checkpoint:
    return fmt::format("EAGLE drafts with a checkpoint of its own, trained for this model, "
                       "which the catalog does not name: set {} to it before running this",
                       draft_model_variable);
  }
  return {};
}

std::string plural(int n, std::string_view noun) {
  return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s");
}

/// What runs where: the servers, their GPUs and nodes, and how several share a node.
std::string where_lines(const LaunchCommand& c) {
  std::string out = fmt::format("# {}: {} of {}, one per replica", engine_text(*c.engine),
                                plural(c.servers, "server"), plural(c.gpus_per_server, "GPU"));
  if (c.servers_per_node > 1) {
    out += fmt::format("; {} share each node, each on its own GPUs (CUDA_VISIBLE_DEVICES) and "
                       "--port, behind a load balancer",
                       c.servers_per_node);
  }
  if (c.nodes_per_server > 1) {
    out += fmt::format("; each spans {} nodes", c.nodes_per_server);
  }
  out += '\n';
  if (c.nodes_per_server > 1) {
    switch (c.style) {
    case LaunchStyle::vllm:
      out += "# start Ray first ('ray start --head' on one node, 'ray start "
             "--address=FIRST_NODE:6379' on the others), then run this on the first\n";
      break;
    case LaunchStyle::sglang:
      out += "# run this on each node of the server with NODE_RANK and FIRST_NODE set\n";
      break;
    case LaunchStyle::trtllm:
      out += "# under Slurm, one task per GPU; the options file on a filesystem every node "
             "reads\n";
      break;
    }
  }
  return out;
}

/// `value` as one shell word: as it is when it holds nothing the shell reads, in single
/// quotes when it holds no variable, else in double quotes with its own quotes escaped.
std::string shell_word(const std::string& value) {
  if (value.find_first_of(R"({}"' )") == std::string::npos) {
    return value;
  }
  if (value.find('$') == std::string::npos) {
    return fmt::format("'{}'", value);
  }
  std::string out = "\"";
  for (const char ch : value) {
    if (ch == '"' || ch == '\\') {
      out += '\\';
    }
    out += ch;
  }
  return out + '"';
}

std::string flag_text(const LaunchArg& arg) {
  return arg.value.empty() ? arg.flag : fmt::format("{} {}", arg.flag, shell_word(arg.value));
}

/// The options file as YAML, a key's dotted prefix as its parent mapping.
std::string options_file_text(const LaunchCommand& c) {
  // The heredoc expands a variable only where a setting reads one (DRAFT_MODEL).
  const bool expands = std::ranges::any_of(
      c.settings, [](const LaunchArg& s) { return s.value.find('$') != std::string::npos; });
  std::string out = fmt::format("cat > {} <<{}\n", launch_options_file, expands ? "EOF" : "'EOF'");
  std::string parent;
  for (const LaunchArg& setting : c.settings) {
    const auto dot = setting.flag.find('.');
    if (dot == std::string::npos) {
      out += fmt::format("{}: {}\n", setting.flag, setting.value);
      parent.clear();
      continue;
    }
    if (setting.flag.substr(0, dot) != parent) {
      parent = setting.flag.substr(0, dot);
      out += parent + ":\n";
    }
    out += fmt::format("  {}: {}\n", setting.flag.substr(dot + 1), setting.value);
  }
  return out + "EOF\n";
}

/// The command, one flag per line: the first server's GPUs when several share a node, Slurm's
/// launcher when TensorRT-LLM spans nodes.
std::string command_text(const LaunchCommand& c) {
  std::string out;
  if (c.servers_per_node > 1) {
    std::string devices;
    for (int gpu = 0; gpu < c.gpus_per_server; ++gpu) {
      devices += fmt::format("{}{}", gpu == 0 ? "" : ",", gpu);
    }
    out += fmt::format("CUDA_VISIBLE_DEVICES={} ", devices);
  }
  if (c.style == LaunchStyle::trtllm && c.nodes_per_server > 1) {
    out +=
        fmt::format("srun -N {} --ntasks {} --ntasks-per-node {} --mpi=pmix "
                    "trtllm-llmapi-launch ",
                    c.nodes_per_server, c.gpus_per_server, c.gpus_per_server / c.nodes_per_server);
  }
  out += c.program + ' ';
  if (!c.checkpoint_flag.empty()) {
    out += c.checkpoint_flag + ' ';
  }
  out += c.checkpoint;
  for (const LaunchArg& arg : c.args) {
    out += " \\\n  " + flag_text(arg);
  }
  return out + '\n';
}

std::string launch_script(const LaunchCommand& c) {
  std::string out = where_lines(c);
  for (const LaunchArg& arg : c.args) {
    out += fmt::format("# {}: {}\n", flag_text(arg), arg.reason);
  }
  for (const LaunchArg& setting : c.settings) {
    out += fmt::format("# {}: {}: {}\n", setting.flag, setting.value, setting.reason);
  }
  for (const std::string& note : c.notes) {
    out += fmt::format("# note: {}\n", note);
  }
  if (!c.settings.empty()) {
    out += options_file_text(c);
  }
  return out + command_text(c);
}

} // namespace

void write_launch_words(LaunchCommand& command) {
  for (LaunchArg& arg : command.args) {
    arg.reason = reason(arg, command);
  }
  for (LaunchArg& setting : command.settings) {
    setting.reason = reason(setting, command);
  }
  command.notes.clear();
  for (const LaunchCaveat what : command.caveats) {
    command.notes.push_back(caveat(what, command));
  }
  command.script = launch_script(command);
}

} // namespace icx
