// The core's error types. Every one carries a complete one-line message; the front end
// adds where the input came from (a flag) and maps the type to an exit status.
#pragma once

#include "icx/util/input_error.hpp"

namespace icx {

/// A catalog file (shipped or user-given) that cannot be used; the message names the file
/// and the JSON Pointer of the offending value.
class CatalogError : public InputError {
public:
  using InputError::InputError;
};

/// A group of GPUs that cannot exist (icx/catalog/group_rules.hpp): the message says which rule it
/// breaks and which catalog field says so.
class GroupError : public InputError {
public:
  using InputError::InputError;
};

/// An id that names nothing in the catalog; the message lists what is known and the
/// nearest match.
class LookupError : public InputError {
public:
  using InputError::InputError;
};

} // namespace icx
