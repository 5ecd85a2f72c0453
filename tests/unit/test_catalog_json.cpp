// Catalog entries written as JSON have the catalog files' shape and read back unchanged.
#include "icx/catalog/json.hpp"

#include <limits>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "icx/base/error.hpp"

namespace icx::unit_catalog_json {
namespace {

using Json = nlohmann::ordered_json;

/// Every entry of `catalog` in one document, as `icx <listing> --json` prints each section.
Json document_of(const Catalog& catalog) {
  Json document = Json::object();
  document["schema"] = catalog_schema;
  auto section = [&](auto entries) {
    using T = typename decltype(entries)::value_type;
    Json items = Json::array();
    for (const T& entry : entries) {
      items.push_back(entry);
    }
    document[std::string(catalog_section<T>)] = std::move(items);
  };
  section(catalog.dtypes());
  section(catalog.links());
  section(catalog.gpus());
  section(catalog.models());
  section(catalog.systems());
  section(catalog.storage_tiers());
  section(catalog.loaders());
  section(catalog.engines());
  return document;
}

/// Each entry of `read` equals the one of `original` at the same place, but for its origin.
template <class T> void expect_same(std::span<const T> original, std::span<const T> read) {
  ASSERT_EQ(original.size(), read.size());
  for (std::size_t i = 0; i < original.size(); ++i) {
    T copy = read[i];
    copy.origin = original[i].origin;
    EXPECT_TRUE(copy == original[i]) << catalog_section<T> << " '" << original[i].id << "'";
  }
}

TEST(CatalogJson, EveryShippedEntryReadsBackUnchanged) {
  const Catalog shipped = Catalog::shipped();
  Catalog read;
  read.overlay_text(document_of(shipped).dump(2), "written");
  expect_same(shipped.links(), read.links());
  expect_same(shipped.gpus(), read.gpus());
  expect_same(shipped.models(), read.models());
  expect_same(shipped.dtypes(), read.dtypes());
  expect_same(shipped.systems(), read.systems());
  expect_same(shipped.storage_tiers(), read.storage_tiers());
  expect_same(shipped.loaders(), read.loaders());
  expect_same(shipped.engines(), read.engines());
  EXPECT_EQ(read.links().front().origin, "written");
}

TEST(CatalogJson, LinkHasTheCatalogFileShape) {
  Link link;
  link.id = "wire";
  link.name = "A wire";
  link.aliases = {"w"};
  link.source = "a datasheet";
  link.connects = "GPU <-> GPU";
  link.tier = Tier::scale_up;
  // 900 GB/s counting both directions is 450 GB/s each way.
  link.headline_bandwidth = Range<BytesPerSecond>::exactly(BytesPerSecond::of(900e9));
  link.headline_convention = Convention::both_directions_summed;
  link.per_direction_bandwidth = Range<BytesPerSecond>::exactly(BytesPerSecond::of(450e9));
  link.latency = {Seconds::of(1e-6), Seconds::of(2e-6)};
  link.max_domain_gpus = 8;
  ExpectedModel expected;
  expected.efficiency = 0.8;
  expected.step_latency = Seconds::of(2.74e-6);
  expected.ramp = Seconds::of(97.5e-6);
  expected.small_message_slowdown = 0.84;
  expected.in_network_reduction = InNetworkReduction{0.6, Seconds::of(29.6e-6)};
  expected.source = "a fit";
  link.expected = expected;
  EXPECT_EQ(Json(link).dump(),
            R"({"id":"wire","name":"A wire","aliases":["w"],"connects":"GPU <-> GPU",)"
            R"("tier":"scale-up","headline_GBps":900,)"
            R"("headline_convention":"both-directions-summed","per_direction_GBps":450,)"
            R"("max_domain_gpus":8,"latency_us":[1,2],"source":"a datasheet",)"
            R"("expected":{"efficiency":0.8,"step_latency_us":2.74,"ramp_us":97.5,)"
            R"("small_message_slowdown":0.84,)"
            R"("in_network_reduction":{"efficiency":0.6,"latency_us":29.6},"source":"a fit"}})");
}

TEST(CatalogJson, ExpertParallelKernelsAndGroupsReadBackUnchanged) {
  Catalog catalog = Catalog::shipped();
  Link link = catalog.link("nvlink4");
  ASSERT_TRUE(link.expected);
  link.id = "nvlink4-ep";
  link.aliases.clear();
  link.expected->expert_parallel = ExpertParallelKernels{
      EpKernelParameters{0.7, microseconds(40)}, EpKernelParameters{0.65, microseconds(45)},
      EpKernelParameters{0.4, microseconds(10)}, EpKernelParameters{0.35, microseconds(12.5)},
      "an expert-parallel benchmark"};
  Model model = catalog.model("deepseek-v3");
  model.id = "grouped";
  model.aliases.clear();
  model.expert_groups = 16;
  model.expert_groups_per_token = 2;
  Json document = Json::object();
  document["links"] = Json::array({link});
  document["models"] = Json::array({model});
  catalog.overlay_text(document.dump(), "written");
  // Built as the reader builds them (microseconds(12.5)), so equality holds to the last bit.
  Link link_read = catalog.link("nvlink4-ep");
  link_read.origin = link.origin;
  EXPECT_TRUE(link_read.expected->expert_parallel == link.expected->expert_parallel);
  EXPECT_TRUE(link_read == link);
  Model model_read = catalog.model("grouped");
  model_read.origin = model.origin;
  EXPECT_TRUE(model_read == model);
}

TEST(CatalogJson, OptionalFieldsAreLeftOutAsTheFilesDo) {
  Model dense;
  dense.id = "m";
  dense.total_params = 7e9;
  dense.active_params = 7e9;
  const Json json = dense;
  EXPECT_FALSE(json.contains("active_params"));
  EXPECT_FALSE(json.contains("experts"));
  EXPECT_FALSE(json.contains("kv_lora_rank"));
  Gpu gpu;
  EXPECT_FALSE(Json(gpu).contains("reference"));
  gpu.reference = true;
  EXPECT_EQ(Json(gpu).at("reference"), true);
}

TEST(CatalogJson, ASchemaOtherThanTheCatalogsIsRefused) {
  Catalog catalog = Catalog::shipped();
  EXPECT_NO_THROW(catalog.overlay_text(R"({"schema": "icx.catalog/1", "links": []})", "f"));
  try {
    catalog.overlay_text(R"({"schema": "icx.tp/1"})", "f");
    FAIL() << "expected CatalogError";
  } catch (const CatalogError& error) {
    EXPECT_STREQ(error.what(), R"(f: /schema: unknown schema "icx.tp/1"; known: "icx.catalog/1")");
  }
}

TEST(JsonNumber, WholeValuesAreIntegersAndNonFiniteOnesABug) {
  EXPECT_EQ(json_number(134217728.0).dump(), "134217728");
  EXPECT_EQ(json_number(0.5).dump(), "0.5");
  EXPECT_THROW((void)json_number(std::numeric_limits<double>::infinity()), std::logic_error);
}

} // namespace
} // namespace icx::unit_catalog_json
