// Group-limited MoE routing in a catalog file: expert_groups and expert_groups_per_token.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "icx/catalog/catalog.hpp"
#include "icx/catalog/json.hpp"
#include "test_fixtures.hpp"

namespace icx::unit_catalog_expert_groups {
namespace {

/// A model document with `rest` after its required fields: 64 routed experts, 6 per token
/// unless `rest` says otherwise.
std::string model(const std::string& rest) {
  return R"({"models": [{"id": "moe", "name": "MoE", "hidden": 64, "layers": 4,
    "total_params": 1e9, "active_params": 2e8, "default_dtype": "bf16", "attention_heads": 8,
    "kv_heads": 8, "head_dim": 8, "intermediate_size": 128, "vocab_size": 1000,
    "source": "s")" +
         rest + "}]}";
}

const std::string moe = R"(, "experts": 64, "experts_per_token": 6)";

std::string error_of(const std::string& text) {
  return test::catalog_error(Catalog::shipped(), text);
}

TEST(CatalogExpertGroups, ReadsAndWritesBothFields) {
  Catalog catalog = Catalog::shipped();
  catalog.overlay_text(model(moe + R"(, "expert_groups": 8, "expert_groups_per_token": 3)"),
                       "user.json");
  const Model& read = catalog.model("moe");
  EXPECT_EQ(read.expert_groups, 8);
  EXPECT_EQ(read.expert_groups_per_token, 3);
  const nlohmann::ordered_json json = read;
  EXPECT_EQ(json.at("expert_groups"), 8);
  EXPECT_EQ(json.at("expert_groups_per_token"), 3);
  Catalog again = Catalog::shipped();
  again.overlay_text(R"({"models": [)" + json.dump() + "]}", "written");
  EXPECT_EQ(again.model("moe").expert_groups, 8);
  EXPECT_EQ(again.model("moe").expert_groups_per_token, 3);
}

TEST(CatalogExpertGroups, AbsentMeansNoLimitAndIsNotWritten) {
  Catalog catalog = Catalog::shipped();
  catalog.overlay_text(model(moe), "user.json");
  const Model& read = catalog.model("moe");
  EXPECT_EQ(read.expert_groups, 0);
  EXPECT_EQ(read.expert_groups_per_token, 0);
  const nlohmann::ordered_json json = read;
  EXPECT_FALSE(json.contains("expert_groups"));
  EXPECT_FALSE(json.contains("expert_groups_per_token"));
}

/// The error of the 64-expert, 6-per-token model with `groups` groups, `per_token` per token.
std::string groups_error(const std::string& groups, const std::string& per_token) {
  return error_of(model(moe + R"(, "expert_groups": )" + groups +
                        R"(, "expert_groups_per_token": )" + per_token));
}

TEST(CatalogExpertGroups, BadGroupsNameThePointer) {
  const std::string at = "user.json: /models/0/";
  // 64 experts do not split into 5 equal groups.
  EXPECT_EQ(groups_error("5", "1"),
            at + "expert_groups: 5 does not divide the 64 routed experts into equal groups");
  EXPECT_EQ(groups_error("128", "1"),
            at + "expert_groups: expected a whole number from 1 to 64, got the number 128");
  EXPECT_EQ(groups_error("8.5", "2"),
            at + "expert_groups: expected a whole number from 1 to 64, got the number 8.5");
  EXPECT_EQ(groups_error("8", "9"), at + "expert_groups_per_token: expected a whole number "
                                         "from 1 to 8, got the number 9");
  EXPECT_EQ(groups_error("8", "0"), at + "expert_groups_per_token: expected a whole number "
                                         "from 1 to 8, got the number 0");
  // 32 groups of 2 experts: two groups hold 4 of the 6 experts a token picks.
  EXPECT_EQ(groups_error("32", "2"), at + "expert_groups_per_token: 2 × 2 experts per group = "
                                          "4, fewer than the 6 experts a token picks");
}

TEST(CatalogExpertGroups, BothOrNeitherAndOnlyOnMoe) {
  EXPECT_EQ(error_of(model(moe + R"(, "expert_groups": 8)")),
            "user.json: /models/0/expert_groups: given without the other: group-limited routing "
            "needs expert_groups and expert_groups_per_token");
  EXPECT_EQ(error_of(model(moe + R"(, "expert_groups_per_token": 4)")),
            "user.json: /models/0/expert_groups_per_token: given without the other: "
            "group-limited routing needs expert_groups and expert_groups_per_token");
  EXPECT_EQ(error_of(model(R"(, "expert_groups": 8, "expert_groups_per_token": 4)")),
            "user.json: /models/0/expert_groups: given for a dense model (experts is 0 or absent)");
  EXPECT_EQ(error_of(model(R"(, "expert_groups_per_token": 4)")),
            "user.json: /models/0/expert_groups_per_token: given for a dense model (experts is 0 "
            "or absent)");
}

} // namespace
} // namespace icx::unit_catalog_expert_groups
