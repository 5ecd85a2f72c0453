// Files the command line prints as they are, compiled into the binary: the shell completions.
#pragma once

#include <span>

#include "icx/util/embedded_file.hpp"

namespace icx::detail {

/// src/cli/completions: icx.bash and _icx (zsh).
std::span<const EmbeddedFile> embedded_completion_files();

} // namespace icx::detail
