// The one error type of code that reads what users give (files, numbers): its message is
// complete on one line; the front end adds where the input came from.
#pragma once

#include <stdexcept>

namespace icx {

/// Bad input from the user: a value out of range, an unknown id, a malformed file.
class InputError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

} // namespace icx
