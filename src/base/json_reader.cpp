#include "base/json_reader.hpp"

#include <cerrno>
#include <cmath>
#include <fstream>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "icx/base/error.hpp"
#include "icx/base/limits.hpp"

namespace icx::detail {

using nlohmann::json;

void fail_at(const std::string& origin, const json::json_pointer& pointer,
             const std::string& reason) {
  const std::string where = pointer.empty() ? std::string("(document)") : pointer.to_string();
  throw CatalogError(fmt::format("{}: {}: {}", origin, where, reason));
}

namespace {

std::string strip_exception_prefix(const std::string& what) {
  const auto end = what.find("] ");
  return end == std::string::npos ? what : what.substr(end + 2);
}

} // namespace

namespace {

/// Follows the parser's events (as a SAX handler) to know the JSON Pointer of the value being
/// read, and rejects duplicate keys and too deep nesting as they are met.
class StructureCheck {
public:
  explicit StructureCheck(const std::string& origin) : origin_(origin) {}

  bool null() { return finish_value(); }
  bool boolean(bool /*value*/) { return finish_value(); }
  bool number_integer(json::number_integer_t /*value*/) { return finish_value(); }
  bool number_unsigned(json::number_unsigned_t /*value*/) { return finish_value(); }
  bool number_float(json::number_float_t /*value*/, const json::string_t& /*text*/) {
    return finish_value();
  }
  bool string(json::string_t& /*value*/) { return finish_value(); }
  bool binary(json::binary_t& /*value*/) { return finish_value(); }
  bool start_object(std::size_t /*size*/) { return open(true); }
  bool start_array(std::size_t /*size*/) { return open(false); }
  bool key(json::string_t& key) { return add_key(key); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  /// Stops at a syntax error: the parser that builds the document reports it.
  bool parse_error(std::size_t /*position*/, const std::string& /*token*/,
                   const nlohmann::detail::exception& /*error*/) {
    return false;
  }

private:
  struct Frame {
    bool object = false;
    std::set<std::string, std::less<>> keys;
    std::string key;
    std::size_t index = 0;
  };

  /// The pointer of the value now being read (inside the innermost container).
  [[nodiscard]] json::json_pointer pointer() const {
    json::json_pointer result;
    for (const Frame& frame : frames_) {
      result = frame.object ? result / frame.key : result / frame.index;
    }
    return result;
  }

  bool open(bool object) {
    if (frames_.size() >= static_cast<std::size_t>(limits::max_json_depth)) {
      fail_at(origin_, json::json_pointer(),
              fmt::format("nested deeper than {} levels of objects and arrays",
                          limits::max_json_depth));
    }
    frames_.push_back(Frame{object, {}, {}, 0});
    return true;
  }

  bool add_key(const std::string& key) {
    Frame& frame = frames_.back();
    frame.key = key;
    if (!frame.keys.insert(frame.key).second) {
      fail_at(origin_, pointer(), "duplicate key; each key may appear once in an object");
    }
    return true;
  }

  bool close() {
    frames_.pop_back();
    return finish_value();
  }

  bool finish_value() {
    if (!frames_.empty() && !frames_.back().object) {
      ++frames_.back().index;
    }
    return true;
  }

  const std::string& origin_;
  std::vector<Frame> frames_;
};

} // namespace

json parse_document(std::string_view text, const std::string& origin) {
  try {
    // The structure first, then the tree: nlohmann's parser with a callback scans the
    // enclosing array again at the end of each of its objects, quadratic in a large section.
    StructureCheck check(origin);
    (void)json::sax_parse(text, &check);
    return json::parse(text);              // a syntax error the check stopped at is thrown here
  } catch (const json::exception& error) { // parse_error, or out_of_range for 1e400
    throw CatalogError(
        fmt::format("{}: invalid JSON: {}", origin, strip_exception_prefix(error.what())));
  }
}

std::string describe(const json& value) {
  switch (value.type()) {
  case json::value_t::null:
    return "null";
  case json::value_t::boolean:
    return "a boolean";
  case json::value_t::string:
    return "a string";
  case json::value_t::array:
    return "an array";
  case json::value_t::object:
    return "an object";
  default:
    return fmt::format("the number {}", value.dump());
  }
}

ObjectReader::ObjectReader(const json& object, json::json_pointer pointer, std::string origin)
    : object_(object), pointer_(std::move(pointer)), origin_(std::move(origin)) {
  if (!object_.is_object()) {
    fail_at(origin_, pointer_, "expected an object, got " + describe(object_));
  }
}

bool ObjectReader::has(std::string_view key) const {
  return object_.contains(key);
}

bool ObjectReader::has_value(std::string_view key) const {
  const auto found = object_.find(key);
  return found != object_.end() && !found->is_null();
}

json::json_pointer ObjectReader::pointer_to(std::string_view key) const {
  return key.empty() ? pointer_ : pointer_ / std::string(key);
}

void ObjectReader::fail(std::string_view key, const std::string& reason) const {
  fail_at(origin_, pointer_to(key), reason);
}

const json& ObjectReader::require(std::string_view key) {
  const auto found = object_.find(key);
  if (found == object_.end()) {
    fail(key, "missing required field");
  }
  seen_.emplace(key);
  return *found;
}

std::string ObjectReader::text(std::string_view key) {
  const json& value = require(key);
  if (!value.is_string() || value.get_ref<const std::string&>().empty()) {
    fail(key, "expected a non-empty string, got " + describe(value));
  }
  return value.get<std::string>();
}

std::vector<std::string> ObjectReader::text_list(std::string_view key) {
  if (!has(key)) {
    return {};
  }
  const json& value = require(key);
  if (!value.is_array()) {
    fail(key, "expected an array of strings, got " + describe(value));
  }
  std::vector<std::string> result;
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (!value[i].is_string() || value[i].get_ref<const std::string&>().empty()) {
      fail_at(origin_, pointer_to(key) / i,
              "expected a non-empty string, got " + describe(value[i]));
    }
    result.push_back(value[i].get<std::string>());
  }
  return result;
}

namespace {

bool is_within(const json& value, const limits::Bounds& bounds) {
  if (!value.is_number()) {
    return false;
  }
  const double number = value.get<double>();
  return std::isfinite(number) && number >= bounds.min && number <= bounds.max;
}

std::string bounds_text(const limits::Bounds& bounds) {
  return fmt::format("a number from {:g} to {:g}", bounds.min, bounds.max);
}

} // namespace

double ObjectReader::positive(std::string_view key, const limits::Bounds& bounds) {
  const json& value = require(key);
  if (!is_within(value, bounds)) {
    fail(key, "expected " + bounds_text(bounds) + ", got " + describe(value));
  }
  return value.get<double>();
}

double ObjectReader::fraction(std::string_view key) {
  const json& value = require(key);
  if (!is_within(value, limits::utilisation)) {
    fail(key, fmt::format("expected a fraction from {:g} to {:g}, got {}", limits::utilisation.min,
                          limits::utilisation.max, describe(value)));
  }
  return value.get<double>();
}

bool ObjectReader::flag_or(std::string_view key, bool fallback) {
  if (!has(key)) {
    return fallback;
  }
  const json& value = require(key);
  if (!value.is_boolean()) {
    fail(key, "expected true or false, got " + describe(value));
  }
  return value.get<bool>();
}

int ObjectReader::whole(std::string_view key, int min, int max) {
  const json& value = require(key);
  if (!value.is_number_integer() || value.get<std::int64_t>() < min ||
      value.get<std::int64_t>() > max) {
    fail(key,
         fmt::format("expected a whole number from {} to {}, got {}", min, max, describe(value)));
  }
  return static_cast<int>(value.get<std::int64_t>());
}

int ObjectReader::whole_or(std::string_view key, int min, int max, int fallback) {
  return has(key) ? whole(key, min, max) : fallback;
}

Range<double> ObjectReader::positive_range(std::string_view key, const limits::Bounds& bounds) {
  const json& value = require(key);
  if (is_within(value, bounds)) {
    return Range<double>::exactly(value.get<double>());
  }
  if (value.is_array() && value.size() == 2 && is_within(value[0], bounds) &&
      is_within(value[1], bounds) && value[0].get<double>() <= value[1].get<double>()) {
    return Range<double>{value[0].get<double>(), value[1].get<double>()};
  }
  fail(key, "expected " + bounds_text(bounds) +
                " or a range [low, high] of such numbers with "
                "low <= high, got " +
                describe(value));
}

const json& ObjectReader::object(std::string_view key) {
  const json& value = require(key);
  if (!value.is_object()) {
    fail(key, "expected an object, got " + describe(value));
  }
  return value;
}

void ObjectReader::finish() const {
  for (const auto& [key, value] : object_.items()) {
    if (!seen_.contains(key)) {
      fail(key, "unknown field");
    }
  }
}

} // namespace icx::detail
