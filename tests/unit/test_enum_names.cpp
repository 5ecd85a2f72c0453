#include "icx/base/enum_names.hpp"

#include <array>
#include <optional>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "icx/base/error.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/wire/collectives.hpp"

namespace icx::unit_enum_names {
namespace {

enum class Fruit { apple, pear };

constexpr std::array<EnumName<Fruit>, 3> enum_names(Fruit /*unused*/) {
  return {{{Fruit::apple, "apple"}, {Fruit::pear, "pear"}, {Fruit::pear, "poire"}}};
}

TEST(EnumNames, PrintsTheFirstNameOfAValue) {
  EXPECT_EQ(to_string(Fruit::apple), "apple");
  EXPECT_EQ(to_string(Fruit::pear), "pear");
  static_assert(to_string(Fruit::pear) == "pear");
}

TEST(EnumNames, ParsesNamesAndAliasesExactly) {
  EXPECT_EQ(parse_enum<Fruit>("apple"), Fruit::apple);
  EXPECT_EQ(parse_enum<Fruit>("poire"), Fruit::pear);
  EXPECT_EQ(parse_enum<Fruit>("Apple"), std::nullopt);
  EXPECT_EQ(parse_enum<Fruit>(""), std::nullopt);
}

TEST(EnumNames, ListsNamesWithoutAliases) {
  EXPECT_EQ(names<Fruit>(), (std::vector<std::string>{"apple", "pear"}));
  EXPECT_EQ(known_names<Fruit>(), "apple, pear");
}

TEST(EnumNames, ParsesLooselyThroughANormalisation) {
  // Operations are matched without case or separators, as nccl-tests spells them.
  EXPECT_EQ(collective_from_name("All_Reduce"), Collective::all_reduce);
  EXPECT_EQ(collective_from_name("alltoall"), Collective::all_to_all);
  EXPECT_EQ(collective_from_name("sendrecv"), Collective::point_to_point);
  EXPECT_EQ(collective_from_name("broadcast"), std::nullopt);
  EXPECT_EQ(to_string(Collective::point_to_point), "point-to-point");
  EXPECT_EQ(known_names<Collective>(),
            "all-reduce, all-gather, reduce-scatter, all-to-all, point-to-point");
}

TEST(EnumNames, JsonWritesAndReadsTheName) {
  nlohmann::ordered_json json = Tier::scale_out;
  EXPECT_EQ(json.dump(), "\"scale-out\"");
  EXPECT_EQ(nlohmann::json("each-way").get<Convention>(), Convention::each_way);
  try {
    (void)nlohmann::json("both").get<Convention>();
    FAIL() << "expected InputError";
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(), "'both' is not one of: both-directions-summed, each-way");
  }
}

} // namespace
} // namespace icx::unit_enum_names
