// One name table per enum: the text an enum value prints as, parses from (command line,
// catalog files) and is written as in JSON. An enum opts in by declaring, beside itself,
//   constexpr std::array<EnumName<E>, N> enum_names(E) { return {{{E::a, "a"}, …}}; }
// found by argument-dependent lookup. The first entry of a value is its name; later entries
// of the same value are aliases that parse but never print. The *_in / value_named helpers
// serve any such table (a second wording of an enum, a map of strings).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "icx/base/error.hpp"

namespace icx {

template <class E> struct EnumName {
  E value;
  std::string_view name;
};

/// An enum with a name table (see the top of this file).
template <class E>
concept NamedEnum = std::is_enum_v<E> && requires(E e) {
  enum_names(e);
};

/// The first text `table` gives `value`, "unknown" when it gives none; also for a second
/// wording of an enum (a table beside the one enum_names returns).
template <class E, std::size_t N>
constexpr std::string_view name_in(const std::array<EnumName<E>, N>& table, E value) {
  for (const auto& entry : table) {
    if (entry.value == value) {
      return entry.name;
    }
  }
  return "unknown";
}

/// The name of `value`.
template <NamedEnum E> constexpr std::string_view to_string(E value) {
  return name_in(enum_names(E{}), value);
}

/// The value `table` names `text` exactly (by a name or an alias), or nothing.
template <class E, std::size_t N>
constexpr std::optional<E> value_named(const std::array<EnumName<E>, N>& table,
                                       std::string_view text) {
  for (const auto& entry : table) {
    if (entry.name == text) {
      return entry.value;
    }
  }
  return std::nullopt;
}

/// The value named `text` exactly (a name or an alias), or nothing.
template <NamedEnum E> constexpr std::optional<E> parse_enum(std::string_view text) {
  return value_named(enum_names(E{}), text);
}

/// The value whose name equals `text` once both are passed through `normalise` (e.g. case
/// and separators folded), or nothing.
template <NamedEnum E, class Normalise>
std::optional<E> parse_enum(std::string_view text, Normalise normalise) {
  const std::string wanted = normalise(text);
  for (const auto& entry : enum_names(E{})) {
    if (normalise(entry.name) == wanted) {
      return entry.value;
    }
  }
  return std::nullopt;
}

/// The names in `table` (no aliases), in table order.
template <class E, std::size_t N>
std::vector<std::string> names_in(const std::array<EnumName<E>, N>& table) {
  std::vector<std::string> result;
  for (auto entry = table.begin(); entry != table.end(); ++entry) {
    if (std::find_if(table.begin(), entry,
                     [&](const auto& e) { return e.value == entry->value; }) == entry) {
      result.emplace_back(entry->name);
    }
  }
  return result;
}

/// The names of `E` (no aliases), in table order.
template <NamedEnum E> std::vector<std::string> names() {
  return names_in(enum_names(E{}));
}

/// Names joined for a message: "ring, nvls".
inline std::string joined(const std::vector<std::string>& names) {
  std::string known;
  for (const std::string& name : names) {
    known += known.empty() ? "" : ", ";
    known += name;
  }
  return known;
}

template <NamedEnum E> std::string known_names() {
  return joined(names<E>());
}

/// JSON writes an enum as its name (nlohmann finds these by argument-dependent lookup; the
/// build disables nlohmann's own enum-as-integer conversion).
template <class BasicJson, NamedEnum E> void to_json(BasicJson& json, E value) {
  json = std::string(to_string(value));
}

/// Reads a name; throws InputError listing the known names.
template <class BasicJson, NamedEnum E> void from_json(const BasicJson& json, E& value) {
  const auto text = json.template get<std::string>();
  const std::optional<E> parsed = parse_enum<E>(text);
  if (!parsed) {
    throw InputError("'" + text + "' is not one of: " + known_names<E>());
  }
  value = *parsed;
}

} // namespace icx
