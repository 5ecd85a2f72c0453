#include "icx/text_file.hpp"

#include <cerrno>
#include <fstream>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "icx/error.hpp"

namespace icx {

std::string read_text_file(const std::filesystem::path& path, std::string_view expected) {
  const std::string origin = path.string();
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    throw InputError(fmt::format("{}: is a directory; expected {}", origin, expected));
  }
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const int code = errno;
    throw InputError(
        fmt::format("{}: cannot open: {}", origin,
                    code == 0 ? "unknown error" : std::generic_category().message(code)));
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    throw InputError(origin + ": read error");
  }
  return text.str();
}

} // namespace icx
