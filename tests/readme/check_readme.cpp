// Runs every "$ icx ..." example of one Markdown page (README.md or docs/*.md) from the
// directory it is started in (the repository root, as a reader who cloned the repository
// types it) and checks that the lines shown under it appear, in order and contiguous, in
// what the real binary prints (stdout then stderr), so the page cannot drift from the
// program. A command ending in "; echo $?" also checks the exit status line. A line "…"
// stands for any number of lines left out. Also fails when
//   - an example prints "cannot open" that its shown output does not (a path in the page
//     that does not exist from the repository root);
//   - an example writes a file (-o, --output, >) outside /tmp, which would dirty the tree;
//   - a relative link of the page names a file that does not exist.
//   check_readme <page.md> <icx binary>
//   check_readme --links-only <page.md>       (a page without examples)
#include <algorithm>
#include <array>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
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
    if (line.ends_with('\r')) {
      line.pop_back(); // CSV output ends its lines with CRLF (RFC 4180); a page shows lines
    }
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

bool mentions(const std::vector<std::string>& lines, const std::string& text) {
  for (const std::string& line : lines) {
    if (line.find(text) != std::string::npos) {
      return true;
    }
  }
  return false;
}

/// Why the example must not run: it writes a file (the word after -o, --output or a
/// redirection) outside /tmp, into the source tree; or "". A number after --output is a
/// token count (icx plan, icx place --rate), not a file.
std::string writes_into_tree(const std::string& command) {
  static const std::regex written(R"((?:^|\s)(?:-o|--output|>|>>)\s*(?:=\s*)?(\S+))");
  for (std::sregex_iterator it(command.begin(), command.end(), written), end; it != end; ++it) {
    const std::string target = (*it)[1].str();
    const bool count = std::ranges::all_of(target, [](char c) { return c >= '0' && c <= '9'; });
    if (!count && target.rfind("/tmp/", 0) != 0 && target.rfind("/dev/", 0) != 0) {
      return "it would write '" + target + "' into the source tree; write under /tmp/ instead";
    }
  }
  return "";
}

/// Why the example's output is wrong, or "".
std::string wrong_output(const Example& example, const std::vector<std::string>& actual) {
  if (!contains(actual, example.shown)) {
    return "its output differs";
  }
  const std::string missing_file = "cannot open";
  if (mentions(actual, missing_file) && !mentions(example.shown, missing_file)) {
    return "it prints 'cannot open' (a path that does not exist from the repository root)";
  }
  return "";
}

/// Relative links of the page ("[text](path)" or "[text](path#anchor)") whose file is missing.
std::vector<std::string> broken_links(const std::filesystem::path& page) {
  std::ifstream in(page);
  std::stringstream text;
  text << in.rdbuf();
  const std::string body = text.str();
  static const std::regex link(R"(\]\(([^)#\s]+)(#[^)\s]*)?\))");
  std::vector<std::string> broken;
  for (std::sregex_iterator it(body.begin(), body.end(), link), end; it != end; ++it) {
    const std::string target = (*it)[1].str();
    if (target.find("://") != std::string::npos || target.rfind("mailto:", 0) == 0) {
      continue;
    }
    if (!std::filesystem::exists(page.parent_path() / target)) {
      broken.push_back(target);
    }
  }
  return broken;
}

void print_failure(const std::string& page, const Example& example, const std::string& why,
                   const std::vector<std::string>& actual) {
  std::cerr << page << ":" << example.line << ": 'icx " << example.command << "': " << why
            << (actual.empty() ? "\n" : "; it now prints:\n");
  for (const std::string& line : actual) {
    std::cerr << "  " << line << "\n";
  }
}

int check_links(const std::string& page) {
  const std::vector<std::string> broken = broken_links(page);
  for (const std::string& target : broken) {
    std::cerr << page << ": link to '" << target << "', which does not exist\n";
  }
  return static_cast<int>(broken.size());
}

int check_page(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "--links-only") {
    const int failed = check_links(argv[2]);
    std::cout << "links: " << failed << " broken\n";
    return failed == 0 ? 0 : 1;
  }
  if (argc != 3) {
    std::cerr << "usage: check_readme <page.md> <icx> | --links-only <page.md>   (run from the "
                 "repository root)\n";
    return 2;
  }
  const std::string page = argv[1];
  const std::vector<Example> examples = read_examples(page);
  int passed = 0;
  int failed = check_links(page);
  for (const Example& example : examples) {
    std::vector<std::string> actual;
    std::string why = writes_into_tree(example.command);
    if (why.empty()) {
      actual = run(argv[2], example.command);
      why = wrong_output(example, actual);
    }
    if (why.empty()) {
      ++passed;
      continue;
    }
    ++failed;
    print_failure(page, example, why, actual);
  }
  std::cout << passed << " passed, " << failed << " failed\n";
  return failed == 0 && passed > 0 ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
  try {
    return check_page(argc, argv);
  } catch (const std::exception& error) {
    std::cerr << "check_readme: " << error.what() << '\n';
    return 2;
  }
}
