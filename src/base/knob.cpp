// The spellings of the knobs a front end hands over (icx/base/knob.hpp).
#include "icx/base/knob.hpp"

namespace icx {

namespace {

/// Handed over once, before any command runs (and before any thread starts).
std::span<const EnumName<Knob>>& spellings() {
  static std::span<const EnumName<Knob>> table;
  return table;
}

} // namespace

void use_knob_spellings(std::span<const EnumName<Knob>> table) {
  spellings() = table;
}

std::string_view spelled(Knob knob) {
  for (const EnumName<Knob>& entry : spellings()) {
    if (entry.value == knob) {
      return entry.name;
    }
  }
  return to_string(knob);
}

} // namespace icx
