// icx completion bash|zsh: the shell completion script, as installed with the package, for
// a shell to load without a package.
#include <algorithm>
#include <array>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "commands/commands.hpp"
#include "options/common.hpp"
#include "output/embedded.hpp"
#include "output/terminal.hpp"

namespace icx::cli {

namespace {

/// The script of each shell, by the file it is installed as.
constexpr std::array<std::pair<std::string_view, std::string_view>, 2> scripts{
    {{"bash", "icx.bash"}, {"zsh", "_icx"}}};

int run_completion(const std::string& shell) {
  const auto script =
      std::ranges::find(scripts, shell, &std::pair<std::string_view, std::string_view>::first);
  const auto files = detail::embedded_completion_files();
  const auto file = std::ranges::find(files, script->second, &detail::EmbeddedFile::name);
  if (file == files.end()) {
    throw std::logic_error("the completion script for " + shell + " is not embedded");
  }
  write_unwrapped(stdout, file->text);
  return exit_ok;
}

} // namespace

Command setup_completion(CLI::App& app) {
  auto shell = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand(
      "completion", "Print the shell completion script for bash or zsh (the package installs "
                    "both; this loads them without it)");
  std::vector<std::string> shells;
  for (const auto& [name, file] : scripts) {
    shells.emplace_back(name);
  }
  sub->add_option("shell", *shell, "bash or zsh")->required()->check(CLI::IsMember(shells));
  sub->footer("Examples:\n"
              "  source <(icx completion bash)              (in ~/.bashrc)\n"
              "  icx completion zsh > ~/.zfunc/_icx         (a directory on $fpath)");
  return {sub, [shell] { return run_completion(*shell); }};
}

} // namespace icx::cli
