#include "output/invocation.hpp"

#include <charconv>
#include <chrono>
#include <ctime>
#include <string_view>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include "icx/util/text.hpp"
#include "icx_build_info.hpp"
#include "output/terminal.hpp"

namespace icx::cli {

std::string version_text() {
  return fmt::format("icx {} (commit {}, catalog {})", ICX_VERSION, ICX_COMMIT, ICX_CATALOG_DATE);
}

std::vector<std::string>& invocation() {
  static std::vector<std::string> words;
  return words;
}

std::string invocation_text() {
  std::string line = "icx";
  for (const std::string& word : invocation()) {
    line += ' ';
    line += shell_quoted(word);
  }
  return line;
}

std::string run_time_text() {
  std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  if (const char* fixed = process_environment("SOURCE_DATE_EPOCH"); fixed != nullptr) {
    const std::string_view text(fixed);
    long long seconds = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seconds);
    if (error == std::errc() && end == text.data() + text.size() && seconds >= 0) {
      now = static_cast<std::time_t>(seconds);
    }
  }
  std::tm utc{};
  gmtime_r(&now, &utc);
  return fmt::format("{:%Y-%m-%d %H:%M} UTC", utc);
}

} // namespace icx::cli
