// The CLI's spelling of every knob the core names in a sentence: the flag that sets it. The
// front end hands this table to the core (use_knob_spellings) before a command runs; a unit
// test holds every entry to an option some subcommand defines.
#pragma once

#include <span>

#include "icx/base/knob.hpp"

namespace icx::cli {

std::span<const EnumName<Knob>> flag_spellings();

} // namespace icx::cli
