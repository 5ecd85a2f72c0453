// The unit formatter lives in the core (icx/units_format.hpp), where reports write their
// reasons and derivations; the front end reaches it through this header.
#pragma once

#include "icx/units_format.hpp"
