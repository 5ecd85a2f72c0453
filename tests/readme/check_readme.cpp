// Runs every "$ icx ..." example in README.md and checks that the lines shown under it
// appear, in order and contiguous, in what the real binary prints (stdout then stderr), so
// the README cannot drift from the program. A command ending in "; echo $?" also checks the
// exit status line. A line "…" stands for any number of lines left out.
//   check_readme <README.md> <icx binary>
#include <array>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace {

struct Example {
  std::size_t line = 0;
  std::string command;
  std::vector<std::string> shown;
};

std::vector<Example> read_examples(const std::string& path) {
  std::ifstream in(path);
  std::vector<Example> examples;
  std::string line;
  bool in_fence = false;
  bool collecting = false; // inside a fence, after a "$ icx" line
  std::size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.rfind("```", 0) == 0) {
      in_fence = !in_fence;
      collecting = false;
      continue;
    }
    if (!in_fence) {
      continue;
    }
    if (line.rfind("$ icx ", 0) == 0) {
      examples.push_back({number, line.substr(6), {}});
      collecting = true;
    } else if (collecting) {
      examples.back().shown.push_back(line);
    }
  }
  return examples;
}

std::vector<std::string> run(const std::string& icx, std::string command) {
  const std::string status_suffix = "; echo $?";
  const bool want_status =
      command.size() > status_suffix.size() && command.ends_with(status_suffix);
  if (want_status) {
    command.resize(command.size() - status_suffix.size());
  }
  const std::string shell = "LC_ALL=C.UTF-8 NO_COLOR= COLUMNS= '" + icx + "' " + command + " 2>&1";
  FILE* pipe = popen(shell.c_str(), "r");
  std::string output;
  std::array<char, 4096> buffer{};
  while (pipe != nullptr && std::fgets(buffer.data(), buffer.size(), pipe) != nullptr) {
    output += buffer.data();
  }
  const int status = pipe != nullptr ? pclose(pipe) : -1;
  if (want_status) {
    output += std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + "\n";
  }
  std::vector<std::string> lines;
  std::istringstream stream(output);
  for (std::string line; std::getline(stream, line);) {
    lines.push_back(line);
  }
  return lines;
}

/// Where `shown` stands contiguously in `actual` at or after `from`, or npos.
std::size_t find_run(const std::vector<std::string>& actual, const std::vector<std::string>& shown,
                     std::size_t from) {
  for (std::size_t start = from; start + shown.size() <= actual.size(); ++start) {
    bool all = true;
    for (std::size_t i = 0; i < shown.size() && all; ++i) {
      all = actual[start + i] == shown[i];
    }
    if (all) {
      return start;
    }
  }
  return std::string::npos;
}

/// Every run of lines between "…" lines appears, in order.
bool contains(const std::vector<std::string>& actual, const std::vector<std::string>& shown) {
  std::size_t from = 0;
  std::vector<std::string> run;
  for (std::size_t i = 0; i <= shown.size(); ++i) {
    if (i < shown.size() && shown[i] != "…") {
      run.push_back(shown[i]);
      continue;
    }
    if (!run.empty()) {
      const std::size_t at = find_run(actual, run, from);
      if (at == std::string::npos) {
        return false;
      }
      from = at + run.size();
      run.clear();
    }
  }
  return true;
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: check_readme <README.md> <icx>\n";
    return 2;
  }
  const std::vector<Example> examples = read_examples(argv[1]);
  int passed = 0;
  int failed = 0;
  for (const Example& example : examples) {
    const std::vector<std::string> actual = run(argv[2], example.command);
    if (contains(actual, example.shown)) {
      ++passed;
      continue;
    }
    ++failed;
    std::cerr << "README.md:" << example.line << ": output of 'icx " << example.command
              << "' differs; it now prints:\n";
    for (const std::string& line : actual) {
      std::cerr << "  " << line << "\n";
    }
  }
  std::cout << passed << " passed, " << failed << " failed\n";
  return failed == 0 && passed > 0 ? 0 : 1;
}
