#include "options/files.hpp"

#include <filesystem>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "icx/util/input_error.hpp"

namespace icx::cli {

namespace {

struct FileArgument {
  std::string flag;
  std::string path;
};

struct FileArguments {
  std::vector<FileArgument> inputs;
  std::vector<FileArgument> outputs;
};

/// The files named on this run's command line, recorded by the options' validators as CLI11
/// parses them.
FileArguments& file_arguments() {
  static FileArguments arguments;
  return arguments;
}

CLI::Validator recorder(std::string_view flag, std::vector<FileArgument> FileArguments::*list,
                        std::string name) {
  return {[flag = std::string(flag), list](const std::string& path) {
            (file_arguments().*list).push_back({flag, path});
            return std::string();
          },
          "", std::move(name)};
}

bool same_file(const std::string& output, const std::string& input) {
  if (input == "-" || output.empty() || input.empty()) {
    return false;
  }
  std::error_code error;
  return std::filesystem::equivalent(output, input, error);
}

} // namespace

CLI::Validator input_file(std::string_view flag) {
  return recorder(flag, &FileArguments::inputs, "input file");
}

CLI::Validator output_file(std::string_view flag) {
  return recorder(flag, &FileArguments::outputs, "output file");
}

void clear_file_arguments() {
  file_arguments() = {};
}

void check_outputs_spare_inputs() {
  const FileArguments& files = file_arguments();
  for (const FileArgument& output : files.outputs) {
    for (const FileArgument& input : files.inputs) {
      if (same_file(output.path, input.path)) {
        throw InputError(fmt::format(
            "{} {}: is also an input ({} {}); writing it would destroy what was read; choose "
            "another file name",
            output.flag, output.path, input.flag, input.path));
      }
    }
  }
}

} // namespace icx::cli
