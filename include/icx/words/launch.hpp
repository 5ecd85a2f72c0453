// A launch command in words: why each flag has its value, where the engine runs the layout
// otherwise than icx priced it, and the shell text a user pastes.
#pragma once

#include "icx/serving/launch.hpp"

namespace icx {

/// Fills each argument's and setting's reason, the caveats' notes and the script: comment
/// lines (what runs where, then one per flag), the options file when there is one, and the
/// command one flag per line.
void write_launch_words(LaunchCommand& command);

} // namespace icx
