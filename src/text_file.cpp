#include "icx/text_file.hpp"

#include <cerrno>
#include <fstream>
#include <system_error>

#include <fmt/format.h>

#include "icx/error.hpp"
#include "icx/limits.hpp"

namespace icx {

namespace {

std::string os_reason(int code) {
  return code == 0 ? std::string("unknown error") : std::generic_category().message(code);
}

/// Up to `max_bytes` + 1 bytes of `in`: one byte more than allowed tells "too large" apart.
std::string read_at_most(std::ifstream& in, std::size_t max_bytes) {
  constexpr std::size_t chunk = std::size_t{64} << 10;
  std::string text;
  while (text.size() <= max_bytes && in) {
    const std::size_t old_size = text.size();
    text.resize(old_size + std::min(chunk, max_bytes + 1 - old_size));
    in.read(text.data() + old_size, static_cast<std::streamsize>(text.size() - old_size));
    text.resize(old_size + static_cast<std::size_t>(in.gcount()));
  }
  return text;
}

} // namespace

std::string describe_byte_limit(std::size_t bytes) {
  if (bytes >= limits::mebibyte && bytes % limits::mebibyte == 0) {
    return fmt::format("{} MiB", bytes / limits::mebibyte);
  }
  return fmt::format("{} bytes", bytes);
}

std::string read_text_file(const std::filesystem::path& path, const FileKind& kind) {
  const std::string origin = path.string();
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    throw InputError(fmt::format("{}: is a directory; expected {}", origin, kind.description));
  }
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw InputError(fmt::format("{}: cannot open: {}", origin, os_reason(errno)));
  }
  errno = 0;
  std::string text = read_at_most(in, kind.max_bytes);
  if (in.bad()) {
    throw InputError(fmt::format("{}: read error: {}", origin, os_reason(errno)));
  }
  if (text.size() > kind.max_bytes) {
    throw InputError(fmt::format("{}: file is larger than the {} limit for {}", origin,
                                 describe_byte_limit(kind.max_bytes), kind.description));
  }
  return text;
}

} // namespace icx
