// Reads one JSON object field by field, rejecting wrong types, bad values and unknown keys
// with the file name and the JSON Pointer of the offending value.
#pragma once

#include <array>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "icx/base/enum_names.hpp"
#include "icx/base/limits.hpp"
#include "icx/base/units.hpp"

namespace icx::detail {

class ObjectReader {
public:
  /// `pointer` is the JSON Pointer of `object` inside the document named by `origin`.
  ObjectReader(const nlohmann::json& object, nlohmann::json::json_pointer pointer,
               std::string origin);

  [[nodiscard]] bool has(std::string_view key) const;
  /// Present and not null (configs often write null for "not used").
  [[nodiscard]] bool has_value(std::string_view key) const;
  /// A required non-empty string.
  std::string text(std::string_view key);
  /// An optional array of non-empty strings.
  std::vector<std::string> text_list(std::string_view key);
  /// A required number inside `bounds`.
  double positive(std::string_view key, const limits::Bounds& bounds);
  /// A required number inside limits::utilisation: a fraction such as an efficiency.
  double fraction(std::string_view key);
  /// An optional boolean, `fallback` when absent.
  bool flag_or(std::string_view key, bool fallback);
  /// A required whole number in [min, max].
  int whole(std::string_view key, int min, int max);
  /// An optional whole number in [min, max], `fallback` when absent.
  int whole_or(std::string_view key, int min, int max, int fallback);
  /// A number inside `bounds`, or an array [low, high] of two such with low <= high.
  Range<double> positive_range(std::string_view key, const limits::Bounds& bounds);
  /// A required object; returns its pointer for a nested reader.
  const nlohmann::json& object(std::string_view key);
  /// A string that `table` names (icx/base/enum_names.hpp); returns its value.
  template <class T, std::size_t N>
  T choice(std::string_view key, const std::array<EnumName<T>, N>& table) {
    const std::string value = text(key);
    if (const std::optional<T> parsed = value_named(table, value)) {
      return *parsed;
    }
    fail(key, "'" + value + "' is not one of: " + joined(names_in(table)));
  }
  /// A string naming a value of `E`.
  template <NamedEnum E> E choice(std::string_view key) { return choice(key, enum_names(E{})); }

  [[nodiscard]] nlohmann::json::json_pointer pointer_to(std::string_view key) const;
  /// Throws CatalogError for `key` (or for the object itself when `key` is empty).
  [[noreturn]] void fail(std::string_view key, const std::string& reason) const;
  /// Rejects any key that was not read.
  void finish() const;

private:
  const nlohmann::json& require(std::string_view key);

  const nlohmann::json& object_;
  nlohmann::json::json_pointer pointer_;
  std::string origin_;
  std::set<std::string, std::less<>> seen_;
};

/// Parses a whole document; throws CatalogError "origin: invalid JSON: …", or
/// "origin: pointer: duplicate key …" for a key given twice in one object (the JSON standard
/// leaves that undefined and a parser would silently keep one), or "origin: pointer: nested
/// deeper than …" beyond limits::max_json_depth levels.
nlohmann::json parse_document(std::string_view text, const std::string& origin);

/// Throws CatalogError "origin: pointer: reason".
[[noreturn]] void fail_at(const std::string& origin, const nlohmann::json::json_pointer& pointer,
                          const std::string& reason);

/// A short description of a JSON value's type for error messages ("a string", "an array").
std::string describe(const nlohmann::json& value);

} // namespace icx::detail
