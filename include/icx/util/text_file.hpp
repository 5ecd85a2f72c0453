// Reading and writing the text files users name, and walking their lines.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace icx {

/// What a file is expected to hold, for messages ("a JSON catalog file"), and the most bytes
/// such a file may have.
struct FileKind {
  std::string_view description;
  std::size_t max_bytes = 0;
};

/// The whole content of a file, reading at most `kind.max_bytes` + 1 bytes (so an endless
/// file such as /dev/zero or a pipe is refused too). Throws InputError "path: cannot open:
/// <reason>", "path: is a directory; expected <description>", "path: file is larger than the
/// <N> MiB limit for <description>" or "path: read error: <reason>", or as checked_text.
std::string read_text_file(const std::filesystem::path& path, const FileKind& kind);

/// `text` read from `origin` without a leading UTF-8 byte-order mark. Throws InputError
/// "origin: line L, column C: byte 0xNN is not UTF-8; …" when it is not UTF-8 (every text a
/// report quotes may reach a JSON document).
std::string checked_text(std::string_view origin, std::string text);

/// All of standard input (checked_text), at most `kind.max_bytes`. Throws InputError "-:
/// cannot read standard input: <reason>" (a closed descriptor among them) or "-: standard
/// input is larger than the <N> limit for <description>".
std::string read_standard_input(const FileKind& kind);

/// Writes `text` to `path` whole or not at all: into a new file in the same directory, renamed
/// over `path` once written. `path` must not be one of `inputs` (the files the text was
/// computed from; compared as files, so "./a.log" and "a.log" are the same). Throws
/// InputError "path: …" with the reason: an empty name, a directory, an input, or the
/// system's reason the file could not be created or written.
void write_text_file_atomically(const std::filesystem::path& path, std::string_view text,
                                const std::vector<std::filesystem::path>& inputs);

/// "4 MiB" for a whole number of MiB, else "<N> bytes".
std::string describe_byte_limit(std::size_t bytes);

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
