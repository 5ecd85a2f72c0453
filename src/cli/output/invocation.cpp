#include "output/invocation.hpp"

#include <charconv>
#include <chrono>
#include <ctime>
#include <string_view>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include "icx_build_info.hpp"
#include "output/terminal.hpp"

namespace icx::cli {

namespace {

/// A word the shell reads back as itself: letters, digits and -_./=:,+@% only.
bool plain_word(std::string_view word) {
  constexpr std::string_view safe = "-_./=:,+@%";
  return !word.empty() && std::ranges::all_of(word, [&](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           safe.find(c) != std::string_view::npos || static_cast<unsigned char>(c) >= 0x80;
  });
}

std::string shell_quoted(std::string_view word) {
  if (plain_word(word)) {
    return std::string(word);
  }
  std::string out = "'";
  for (const char c : word) {
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return out + "'";
}

} // namespace

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
