#include "icx/util/text_file.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "icx/util/input_error.hpp"
#include "icx/util/text.hpp"

namespace icx {

namespace {

constexpr std::size_t mebibyte = std::size_t{1} << 20;

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

namespace {

/// Refuses a target that cannot or must not be replaced.
void check_target(const std::filesystem::path& path,
                  const std::vector<std::filesystem::path>& inputs) {
  if (path.empty()) {
    throw InputError("empty file name; give the path of the file to write");
  }
  const std::string origin = path.string();
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    throw InputError(fmt::format("{}: is a directory; give a file name", origin));
  }
  // A device or pipe (/dev/null, /dev/stdout) would be replaced, not written to.
  if (std::filesystem::exists(path, error) && !std::filesystem::is_regular_file(path, error)) {
    throw InputError(fmt::format("{}: is not a regular file; give a file name", origin));
  }
  for (const std::filesystem::path& input : inputs) {
    if (std::filesystem::equivalent(path, input, error)) {
      throw InputError(fmt::format("{}: is also an input ({}); writing it would destroy what "
                                   "was read; choose another file name",
                                   origin, input.string()));
    }
  }
}

/// The file to replace: through a symbolic link to the file it names, so the link stays a link
/// (a dangling link is replaced itself).
std::filesystem::path resolved_target(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::is_symlink(path, error)) {
    return path;
  }
  std::filesystem::path target = std::filesystem::canonical(path, error);
  return error ? path : target;
}

/// Writes all of `text` to `fd`; false (errno set) when a write fails.
bool write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t written = ::write(fd, text.data(), text.size());
    if (written < 0 && errno == EINTR) {
      continue;
    }
    if (written <= 0) {
      return false;
    }
    text.remove_prefix(static_cast<std::size_t>(written));
  }
  return true;
}

} // namespace

void write_text_file_atomically(const std::filesystem::path& path, std::string_view text,
                                const std::vector<std::filesystem::path>& inputs) {
  check_target(path, inputs);
  const std::string origin = path.string();
  const std::filesystem::path target = resolved_target(path);
  const std::filesystem::path directory =
      target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  std::string temporary = (directory / ("." + target.filename().string() + ".XXXXXX")).string();
  const int fd = ::mkstemp(temporary.data());
  if (fd < 0) {
    throw InputError(fmt::format("{}: cannot create a file in '{}': {}", origin, directory.string(),
                                 os_reason(errno)));
  }
  // Readable by others as a file created by an ordinary open() would be (umask applies).
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, static_cast<mode_t>(0666) & ~mask);
  const bool written = write_all(fd, text);
  const int write_errno = errno;
  const bool closed = ::close(fd) == 0;
  const int close_errno = errno;
  const bool renamed = written && closed && ::rename(temporary.c_str(), target.c_str()) == 0;
  if (!renamed) {
    const int code = !written ? write_errno : (!closed ? close_errno : errno);
    ::unlink(temporary.c_str());
    throw InputError(fmt::format("{}: cannot write: {}", origin, os_reason(code)));
  }
}

std::string describe_byte_limit(std::size_t bytes) {
  if (bytes >= mebibyte && bytes % mebibyte == 0) {
    return fmt::format("{} MiB", bytes / mebibyte);
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
  return checked_text(origin, std::move(text));
}

std::string checked_text(std::string_view origin, std::string text) {
  // A byte-order mark some editors write first is not part of the text.
  constexpr std::string_view byte_order_mark = "\xEF\xBB\xBF";
  if (text.starts_with(byte_order_mark)) {
    text.erase(0, byte_order_mark.size());
  }
  const std::optional<std::size_t> bad = first_invalid_utf8(text);
  if (!bad) {
    return text;
  }
  const auto before = text.begin() + static_cast<std::ptrdiff_t>(*bad);
  const std::size_t line = 1 + static_cast<std::size_t>(std::count(text.begin(), before, '\n'));
  const std::size_t newline = std::string_view(text).substr(0, *bad).rfind('\n');
  const std::size_t column = *bad - (newline == std::string_view::npos ? 0 : newline + 1) + 1;
  throw InputError(fmt::format("{}: line {}, column {}: byte 0x{:02X} is not UTF-8; save the file "
                               "as UTF-8",
                               origin, line, column, static_cast<unsigned char>(text[*bad])));
}

std::string read_standard_input(const FileKind& kind) {
  std::string text;
  std::array<char, std::size_t{64} * 1024> buffer{};
  while (true) {
    const ssize_t got = ::read(STDIN_FILENO, buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got < 0) {
      throw InputError(fmt::format("-: cannot read standard input: {}", os_reason(errno)));
    }
    if (got == 0) {
      break;
    }
    text.append(buffer.data(), static_cast<std::size_t>(got));
    if (text.size() > kind.max_bytes) {
      throw InputError(fmt::format("-: standard input is larger than the {} limit for {}",
                                   describe_byte_limit(kind.max_bytes), kind.description));
    }
  }
  return checked_text("-", std::move(text));
}

} // namespace icx
