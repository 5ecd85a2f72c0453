// Reading the files users name (catalogs, configs, logs, CSVs) and walking their lines.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace icx {

/// The whole content of a file. Throws InputError "path: cannot open: <reason>", "path: is a
/// directory; expected <expected>" or "path: read error".
std::string read_text_file(const std::filesystem::path& path, std::string_view expected);

/// Calls `visit(line, number)` for every line of `text` (numbered from 1), without its
/// "\n" or "\r\n" ending.
template <class Visit> void for_each_line(std::string_view text, Visit visit) {
  std::size_t number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (line.ends_with('\r')) {
      line.remove_suffix(1);
    }
    visit(line, ++number);
  }
}

} // namespace icx
