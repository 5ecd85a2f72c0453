#include "icx/catalog/catalog.hpp"

#include <string>

#include <gtest/gtest.h>

#include "icx/base/error.hpp"
#include "test_fixtures.hpp"

namespace icx::unit_catalog {
namespace {

// A minimal, self-contained catalog: a data edit in data/ cannot break these tests.
const std::string dtypes = R"({"dtypes": [
  {"id": "bf16", "name": "BF16", "bytes_per_element": 2, "source": "s"},
  {"id": "fp4", "name": "FP4", "bytes_per_element": 0.5, "source": "s"}]})";

const std::string links = R"({"links": [
  {"id": "nvlink4", "name": "NVLink 4", "aliases": ["nvl4", "NVLink-4"], "connects": "GPU",
   "tier": "scale-up", "headline_GBps": 900, "headline_convention": "both-directions-summed",
   "per_direction_GBps": 450, "latency_us": 1, "source": "s"},
  {"id": "roce", "name": "RoCE", "connects": "node", "tier": "scale-out",
   "headline_GBps": [25, 50], "headline_convention": "each-way",
   "per_direction_GBps": [25, 50], "latency_us": [1, 2], "source": "s"}]})";

const std::string gpus = R"({"gpus": [
  {"id": "h100", "name": "H100", "hbm_GB": 80, "hbm_bandwidth_GBps": 3350,
   "dense_tflops": {"bf16": 989}, "scale_up_link": "nvlink4", "scale_up_domain": 8,
   "achievable_mfu": 0.5, "source": "s"}]})";

const std::string models = R"({"models": [
  {"id": "m70", "name": "M70", "aliases": ["70b"], "hidden": 8192, "layers": 80,
   "total_params": 70e9, "default_dtype": "bf16", "attention_heads": 64, "kv_heads": 8,
   "head_dim": 128, "intermediate_size": 28672, "vocab_size": 128256, "source": "s"}]})";

Catalog small_catalog() {
  Catalog catalog;
  catalog.overlay_text(dtypes, "dtypes.json");
  catalog.overlay_text(links, "links.json");
  catalog.overlay_text(gpus, "gpus.json");
  catalog.overlay_text(models, "models.json");
  return catalog;
}

/// The message of the CatalogError that loading `text` over the small catalog throws.
std::string error_of(const std::string& text) {
  return test::catalog_error(small_catalog(), text);
}

TEST(Catalog, ReadsLinksWithDirectionsAndRanges) {
  const Catalog catalog = small_catalog();
  const Link& nvlink = catalog.link("nvlink4");
  EXPECT_EQ(nvlink.tier, Tier::scale_up);
  EXPECT_EQ(nvlink.headline_convention, Convention::both_directions_summed);
  EXPECT_DOUBLE_EQ(nvlink.headline_bandwidth.high.value(), 900e9);
  EXPECT_DOUBLE_EQ(nvlink.per_direction_bandwidth.high.value(), 450e9);
  EXPECT_DOUBLE_EQ(nvlink.latency.low.value(), 1e-6);
  const Link& roce = catalog.link("roce");
  EXPECT_DOUBLE_EQ(roce.headline_bandwidth.low.value(), 25e9);
  EXPECT_DOUBLE_EQ(roce.headline_bandwidth.high.value(), 50e9);
  EXPECT_DOUBLE_EQ(roce.latency.high.value(), 2e-6);
}

TEST(Catalog, ANewParameterCountKeepsAnMoeModelsActiveShare) {
  // Dense: every parameter is active, so both become the new count. MoE (47e9 total, 13e9
  // active): a larger total keeps 13e9 active; one below 13e9 caps the active count at it.
  Model dense;
  dense.total_params = 70e9;
  dense.active_params = 70e9;
  dense.set_total_params(8e9);
  EXPECT_EQ(dense.total_params, 8e9);
  EXPECT_EQ(dense.active_params, 8e9);
  Model moe;
  moe.experts = 8;
  moe.total_params = 47e9;
  moe.active_params = 13e9;
  moe.set_total_params(100e9);
  EXPECT_EQ(moe.active_params, 13e9);
  moe.set_total_params(10e9);
  EXPECT_EQ(moe.total_params, 10e9);
  EXPECT_EQ(moe.active_params, 10e9);
}

TEST(Catalog, ConventionLabels) {
  EXPECT_EQ(convention_label(Convention::both_directions_summed), "both ways summed");
  EXPECT_EQ(convention_label(Convention::each_way), "each way");
}

TEST(Catalog, ReadsGpusModelsAndDtypes) {
  const Catalog catalog = small_catalog();
  EXPECT_DOUBLE_EQ(catalog.gpu("h100").hbm_capacity.value(), 80e9);
  EXPECT_DOUBLE_EQ(catalog.gpu("h100").dense_peak.at("bf16").value(), 989e12);
  EXPECT_EQ(catalog.model("m70").hidden, 8192);
  EXPECT_DOUBLE_EQ(catalog.model("m70").active_params, 70e9); // dense: active = total
  EXPECT_FALSE(catalog.model("m70").is_moe());
  EXPECT_DOUBLE_EQ(catalog.dtype("fp4").bytes_per_element, 0.5);
}

TEST(Catalog, LooksUpAliasesCaseInsensitively) {
  const Catalog catalog = small_catalog();
  EXPECT_EQ(catalog.link("NVL4").id, "nvlink4");
  EXPECT_EQ(catalog.link("nvlink-4").id, "nvlink4");
  EXPECT_EQ(catalog.model("70B").id, "m70");
}

TEST(Catalog, UnknownIdListsKnownOnesAndSuggests) {
  const Catalog catalog = small_catalog();
  try {
    (void)catalog.link("nvlink5");
    FAIL() << "expected LookupError";
  } catch (const LookupError& error) {
    EXPECT_STREQ(error.what(),
                 "unknown wire 'nvlink5'; known: nvlink4, roce (did you mean 'nvlink4'?)");
  }
}

TEST(Catalog, OverlaySameIdReplacesNewIdAdds) {
  Catalog catalog = small_catalog();
  catalog.overlay_text(R"({"dtypes": [
    {"id": "BF16", "name": "BF16, replaced", "bytes_per_element": 2, "source": "mine"},
    {"id": "int4", "name": "INT4", "bytes_per_element": 0.5, "source": "mine"}]})",
                       "mine.json");
  ASSERT_EQ(catalog.dtypes().size(), 3U);
  EXPECT_EQ(catalog.dtypes()[0].name, "BF16, replaced");
  EXPECT_EQ(catalog.dtypes()[0].origin, "mine.json");
  EXPECT_EQ(catalog.dtypes()[2].id, "int4");
}

TEST(Catalog, FailedOverlayLeavesTheCatalogUnchanged) {
  Catalog catalog = small_catalog();
  EXPECT_THROW(catalog.overlay_text(R"({"dtypes": [
    {"id": "int4", "name": "INT4", "bytes_per_element": 0.5, "source": "s"},
    {"id": "bad", "name": "Bad", "bytes_per_element": -1, "source": "s"}]})",
                                    "user.json"),
               CatalogError);
  EXPECT_EQ(catalog.dtypes().size(), 2U);
}

/// A dtypes document of `count` entries "d0", "d1", … each with the alias "alias-N", and
/// `tail` (a JSON entry or "") after them.
std::string many_dtypes(int count, const std::string& tail = "") {
  std::string text = R"({"dtypes": [)";
  for (int i = 0; i < count; ++i) {
    const std::string n = std::to_string(i);
    text += i > 0 ? "," : "";
    text += R"({"id": "d)";
    text += n;
    text += R"(", "name": "D", "aliases": ["alias-)";
    text += n;
    text += R"("], "bytes_per_element": 2, "source": "s"})";
  }
  if (!tail.empty()) {
    text += ",";
    text += tail;
  }
  text += "]}";
  return text;
}

// An overlay near the 4 MiB limit holds tens of thousands of entries: its merge, its checks and
// its lookups keep the semantics of a small one (see tests/bench/bench_core.cpp for its time).
constexpr int large_overlay = 50000;

TEST(CatalogLargeOverlay, StillFindsEveryEntryByIdOrAlias) {
  Catalog catalog = small_catalog();
  catalog.overlay_text(many_dtypes(large_overlay), "big.json");
  ASSERT_EQ(catalog.dtypes().size(), 2U + large_overlay);
  EXPECT_EQ(catalog.dtype("D49999").id, "d49999");
  EXPECT_EQ(catalog.dtype("ALIAS-123").id, "d123");
  EXPECT_EQ(catalog.dtype("bf16").id, "bf16");
  EXPECT_THROW((void)catalog.dtype("d50000"), LookupError);
}

TEST(CatalogLargeOverlay, StillDetectsADuplicateId) {
  EXPECT_EQ(error_of(many_dtypes(large_overlay, R"({"id": "D7", "name": "D", "bytes_per_element": 1,
              "source": "s"})")),
            "user.json: /dtypes/50000/id: duplicate id 'D7': already used by 'd7'");
  EXPECT_EQ(error_of(many_dtypes(large_overlay, R"({"id": "x", "name": "X", "aliases": ["d9"],
              "bytes_per_element": 1, "source": "s"})")),
            "user.json: /dtypes/50000/aliases/0: duplicate alias 'd9': already used by 'd9'");
}

TEST(CatalogLargeOverlay, ALaterOverlayReplacesByIdAndRefusesATakenName) {
  Catalog catalog = small_catalog();
  catalog.overlay_text(many_dtypes(large_overlay), "big.json");
  catalog.overlay_text(R"({"dtypes": [
    {"id": "D42", "name": "replaced", "bytes_per_element": 1, "source": "mine"}]})",
                       "mine.json");
  ASSERT_EQ(catalog.dtypes().size(), 2U + large_overlay);
  EXPECT_EQ(catalog.dtype("d42").name, "replaced");
  EXPECT_EQ(catalog.dtypes()[2 + 42].origin, "mine.json");
  // The replaced entry dropped its alias: another entry may take it now.
  EXPECT_THROW((void)catalog.dtype("alias-42"), LookupError);
  EXPECT_EQ(test::catalog_error(catalog, R"({"dtypes": [
    {"id": "new", "name": "N", "aliases": ["Alias-7"], "bytes_per_element": 1, "source": "s"}]})"),
            "user.json: dtype 'new' uses the name 'Alias-7', already used by dtype 'd7' from "
            "big.json");
  EXPECT_EQ(test::catalog_error(catalog, R"({"dtypes": [
    {"id": "alias-8", "name": "N", "bytes_per_element": 1, "source": "s"}]})"),
            "user.json: dtype 'alias-8' uses the name 'alias-8', already used by dtype 'd8' from "
            "big.json");
}

/// A link document whose "expected" object is `expected`.
std::string link_with_expected(const std::string& expected) {
  return R"({"links": [{"id": "x", "name": "X", "connects": "c", "tier": "scale-up",
    "headline_GBps": 900, "headline_convention": "both-directions-summed",
    "per_direction_GBps": 450, "latency_us": 1, "source": "s", "expected": )" +
         expected + "}]}";
}

TEST(Catalog, ReadsTheOptionalExpectedModel) {
  Catalog catalog = small_catalog();
  EXPECT_FALSE(catalog.link("nvlink4").expected);
  catalog.overlay_text(link_with_expected(R"({"efficiency": 0.8, "step_latency_us": 2,
      "ramp_us": 100, "small_message_slowdown": 0.5,
      "in_network_reduction": {"efficiency": 0.6, "latency_us": 30}, "source": "fit"})"),
                       "user.json");
  const Link& link = catalog.link("x");
  ASSERT_TRUE(link.expected);
  EXPECT_DOUBLE_EQ(link.expected->efficiency, 0.8);
  EXPECT_DOUBLE_EQ(link.expected->step_latency.value(), 2e-6);
  EXPECT_DOUBLE_EQ(link.expected->ramp.value(), 100e-6);
  EXPECT_DOUBLE_EQ(link.expected->small_message_slowdown, 0.5);
  ASSERT_TRUE(link.expected->in_network_reduction);
  EXPECT_DOUBLE_EQ(link.expected->in_network_reduction->latency.value(), 30e-6);
  EXPECT_EQ(link.expected->source, "fit");
}

TEST(CatalogErrors, ExpectedModelIsValidatedFieldByField) {
  EXPECT_EQ(error_of(link_with_expected(R"({"efficiency": 1.2, "step_latency_us": 2,
      "ramp_us": 100, "small_message_slowdown": 0.5, "source": "s"})")),
            "user.json: /links/0/expected/efficiency: expected a fraction from 0.001 to 1, got "
            "the number 1.2");
  EXPECT_EQ(error_of(link_with_expected(R"({"efficiency": 0.8, "ramp_us": 100,
      "small_message_slowdown": 0.5, "source": "s"})")),
            "user.json: /links/0/expected/step_latency_us: missing required field");
  EXPECT_EQ(error_of(link_with_expected(R"({"efficiency": 0.8, "step_latency_us": 2,
      "ramp_us": 100, "small_message_slowdown": 0.5, "source": "s",
      "in_network_reduction": {"efficiency": 0.6, "latency_us": 30, "x": 1}})")),
            "user.json: /links/0/expected/in_network_reduction/x: unknown field");
}

TEST(CatalogErrors, SyntaxErrorNamesFileAndPosition) {
  EXPECT_EQ(error_of("{\"dtypes\": [}"),
            "user.json: invalid JSON: parse error at line 1, column 13: syntax error while "
            "parsing value - unexpected '}'; expected '[', '{', or a literal");
}

TEST(CatalogErrors, DuplicateKeyNamesThePointer) {
  EXPECT_EQ(error_of(R"({"dtypes": [{"id": "x", "name": "X", "bytes_per_element": 2,
                       "bytes_per_element": 1, "source": "s"}]})"),
            "user.json: /dtypes/0/bytes_per_element: duplicate key; each key may appear once in "
            "an object");
  EXPECT_EQ(error_of(R"({"dtypes": [], "links": [], "dtypes": []})"),
            "user.json: /dtypes: duplicate key; each key may appear once in an object");
  // The same key in two different objects is fine.
  EXPECT_EQ(error_of(R"({"dtypes": [{"id": "x", "name": "X", "bytes_per_element": 2,
                       "source": "s"}, {"id": "y", "name": "Y", "bytes_per_element": 1,
                       "source": "s"}]})"),
            "(no error)");
}

TEST(CatalogErrors, DeepNestingIsRefusedNotRecursedInto) {
  const std::string deep(100000, '[');
  EXPECT_EQ(error_of(deep), "user.json: (document): nested deeper than 64 levels of objects and "
                            "arrays");
  std::string nested = "{\"dtypes\": ";
  for (int i = 0; i < 70; ++i) {
    nested += "{\"a\": ";
  }
  EXPECT_EQ(error_of(nested), "user.json: (document): nested deeper than 64 levels of objects and "
                              "arrays");
}

TEST(CatalogErrors, WrongTypeNamesThePointer) {
  EXPECT_EQ(error_of(R"({"dtypes": [{"id": "x", "name": "X", "bytes_per_element": "2",
                       "source": "s"}]})"),
            "user.json: /dtypes/0/bytes_per_element: expected a number from 0.0625 to 16, got a "
            "string");
}

TEST(CatalogErrors, MissingField) {
  EXPECT_EQ(error_of(R"({"dtypes": [{"id": "x", "name": "X", "source": "s"}]})"),
            "user.json: /dtypes/0/bytes_per_element: missing required field");
}

TEST(CatalogErrors, UnknownField) {
  EXPECT_EQ(error_of(R"({"dtypes": [{"id": "x", "name": "X", "bytes_per_element": 1,
                       "source": "s", "bits": 8}]})"),
            "user.json: /dtypes/0/bits: unknown field");
}

TEST(CatalogErrors, UnknownSection) {
  EXPECT_EQ(error_of(R"({"wires": []})"),
            "user.json: /wires: unknown section; known: links, gpus, models, dtypes, systems, "
            "storage, loaders, engines");
}

TEST(CatalogErrors, DuplicateIdInOneFile) {
  EXPECT_EQ(error_of(R"({"dtypes": [
    {"id": "x", "name": "X", "bytes_per_element": 1, "source": "s"},
    {"id": "X", "name": "X2", "bytes_per_element": 1, "source": "s"}]})"),
            "user.json: /dtypes/1/id: duplicate id 'X': already used by 'x'");
}

TEST(CatalogErrors, AliasThatNamesAnotherEntry) {
  EXPECT_EQ(error_of(R"({"dtypes": [
    {"id": "fp8", "name": "FP8", "aliases": ["bf16"], "bytes_per_element": 1, "source": "s"}]})"),
            "user.json: dtype 'fp8' uses the name 'bf16', already used by dtype 'bf16' from "
            "dtypes.json");
}

TEST(CatalogErrors, NegativeZeroAndHugeFigures) {
  const std::string link_prefix = R"({"links": [{"id": "x", "name": "X", "connects": "c",
    "tier": "host", "headline_convention": "each-way", "per_direction_GBps": 64,
    "latency_us": 1, "source": "s", "headline_GBps": )";
  EXPECT_EQ(error_of(link_prefix + "-64}]}"),
            "user.json: /links/0/headline_GBps: expected a number from 0.001 to 1e+06 or a range "
            "[low, high] of such numbers with low <= high, got the number -64");
  // Finite but absurd: 1e308 GB/s would print inf B/s and 0 s; 1e-300 GB/s a 300-digit ratio.
  EXPECT_NE(error_of(link_prefix + "1e308}]}")
                .find("/links/0/headline_GBps: expected a number "
                      "from 0.001 to 1e+06"),
            std::string::npos);
  EXPECT_NE(error_of(link_prefix + "1e-300}]}").find("/links/0/headline_GBps"), std::string::npos);
  // A petabyte per second is the largest bandwidth a catalog may state; 1 MB/s the smallest.
  EXPECT_NE(error_of(link_prefix + "1000001}]}").find("/links/0/headline_GBps"), std::string::npos);
  EXPECT_NE(error_of(link_prefix + "0}]}").find("/links/0/headline_GBps"), std::string::npos);
  EXPECT_EQ(error_of(link_prefix + "1e400}]}"),
            "user.json: invalid JSON: number overflow parsing '1e400'");
  EXPECT_NE(error_of(link_prefix + "[50, 25]}]}").find("/links/0/headline_GBps"),
            std::string::npos);
}

TEST(CatalogErrors, DirectionConventionMustMatchTheFigures) {
  // 900 GB/s "each way" with 450 GB/s per direction is the classic one-way/both-ways mix-up.
  EXPECT_EQ(error_of(R"({"links": [{"id": "x", "name": "X", "connects": "c",
    "tier": "scale-up", "headline_GBps": 900, "headline_convention": "each-way",
    "per_direction_GBps": 450, "latency_us": 1, "source": "s"}]})"),
            "user.json: /links/0/per_direction_GBps: 450 GB/s each way does not match "
            "headline_GBps 900 GB/s counted as each-way (expected about 900 GB/s)");
}

TEST(CatalogErrors, BadChoiceListsTheValidOnes) {
  EXPECT_EQ(error_of(R"({"links": [{"id": "x", "name": "X", "connects": "c",
    "tier": "rack", "headline_GBps": 9, "headline_convention": "each-way",
    "per_direction_GBps": 9, "latency_us": 1, "source": "s"}]})"),
            "user.json: /links/0/tier: 'rack' is not one of: scale-up, host, scale-out");
}

TEST(CatalogErrors, WholeNumbersOnly) {
  const std::string model = R"({"models": [{"id": "x", "name": "X", "layers": 80,
    "total_params": 1e9, "default_dtype": "bf16", "attention_heads": 8, "kv_heads": 8,
    "head_dim": 128, "intermediate_size": 1024, "vocab_size": 1000, "source": "s",
    "hidden": )";
  EXPECT_EQ(error_of(model + "81.5}]}"),
            "user.json: /models/0/hidden: expected a whole number from 1 to 1048576, got the "
            "number 81.5");
  EXPECT_NE(error_of(model + "0}]}").find("/models/0/hidden"), std::string::npos);
}

TEST(CatalogErrors, BrokenReferences) {
  EXPECT_EQ(error_of(R"({"gpus": [{"id": "g", "name": "G", "hbm_GB": 80,
    "hbm_bandwidth_GBps": 3000, "dense_tflops": {"bf16": 900}, "scale_up_link": "nvlink9",
    "scale_up_domain": 8, "achievable_mfu": 0.5, "source": "s"}]})"),
            "user.json: gpu 'g': scale_up_link 'nvlink9' is not a known link id");
}

TEST(CatalogErrors, DocumentMustBeAnObject) {
  EXPECT_EQ(error_of("[]"), "user.json: (document): expected an object of catalog sections "
                            "(\"links\", \"gpus\", …), got an array");
}

TEST(CatalogErrors, MoeFieldsMustAgree) {
  const std::string model = R"({"models": [{"id": "x", "name": "X", "hidden": 64,
    "layers": 2, "total_params": 1e9, "default_dtype": "bf16", "attention_heads": 8,
    "kv_heads": 8, "head_dim": 8, "intermediate_size": 128, "vocab_size": 1000,
    "source": "s", )";
  EXPECT_EQ(error_of(model + R"("experts": 8, "experts_per_token": 9}]})"),
            "user.json: /models/0/experts_per_token: expected a whole number from 1 to 8, got "
            "the number 9");
  EXPECT_EQ(error_of(model + R"("experts_per_token": 2}]})"),
            "user.json: /models/0/experts_per_token: given for a dense model (experts is 0 or "
            "absent)");
  EXPECT_EQ(error_of(model + R"("active_params": 2e9}]})"),
            "user.json: /models/0/active_params: 2000000000 exceeds total_params 1000000000");
}

} // namespace
} // namespace icx::unit_catalog

namespace icx::unit_catalog {
namespace {

TEST(Catalog, ReadsSystemsAndStorageTiers) {
  Catalog catalog = small_catalog();
  catalog.overlay_text(R"({"systems": [
    {"id": "box", "name": "Box", "gpu": "h100", "gpus_per_node": 8, "scale_up_link": "nvl4",
     "scale_up_domain": 8, "scale_out_link": "roce", "source": "s"}],
    "storage": [{"id": "nvme", "name": "NVMe", "read_GBps": [3, 7], "source": "s"}]})",
                       "user.json");
  EXPECT_EQ(catalog.system("BOX").gpus_per_node, 8);
  EXPECT_DOUBLE_EQ(catalog.storage("nvme").read_bandwidth.low.value(), 3e9);
  EXPECT_DOUBLE_EQ(catalog.storage("nvme").read_bandwidth.high.value(), 7e9);
}

TEST(CatalogErrors, SystemMustNameKnownGpuAndLinks) {
  EXPECT_EQ(error_of(R"({"systems": [
    {"id": "box", "name": "Box", "gpu": "h100", "gpus_per_node": 8, "scale_up_link": "nvlink4",
     "scale_up_domain": 8, "scale_out_link": "ib-xdr", "source": "s"}]})"),
            "user.json: system 'box': link 'ib-xdr' is not a known link id");
}

} // namespace
} // namespace icx::unit_catalog

namespace icx::unit_catalog {
namespace {

const std::string host_link_prefix = R"({"links": [{"id": "x", "name": "X", "connects": "c",
  "headline_convention": "each-way", "headline_GBps": 64, "per_direction_GBps": 63,
  "latency_us": 1, "source": "s", )";

TEST(Catalog, ReadsMeasuredHostToDeviceBandwidth) {
  Catalog catalog = small_catalog();
  catalog.overlay_text(host_link_prefix + R"("tier": "host", "host_to_device_GBps": 51}]})",
                       "user.json");
  ASSERT_TRUE(catalog.link("x").measured_host_to_device.has_value());
  EXPECT_DOUBLE_EQ(catalog.link("x").measured_host_to_device->value(), 51e9);
  EXPECT_FALSE(catalog.link("nvlink4").measured_host_to_device.has_value());
}

TEST(CatalogErrors, HostToDeviceOnlyOnHostLinksAndBelowTheLink) {
  EXPECT_EQ(error_of(host_link_prefix + R"("tier": "scale-up", "host_to_device_GBps": 51}]})"),
            "user.json: /links/0/host_to_device_GBps: given for a scale-up link; only a host "
            "link (tier \"host\") carries host-to-device copies");
  // 63 GB/s each way, plus the 10 % tolerance for rounded sources: 80 is impossible.
  EXPECT_EQ(error_of(host_link_prefix + R"("tier": "host", "host_to_device_GBps": 80}]})"),
            "user.json: /links/0/host_to_device_GBps: 80 GB/s exceeds the link's 63 GB/s each "
            "way");
  EXPECT_NE(error_of(host_link_prefix + R"("tier": "host", "host_to_device_GBps": -5}]})")
                .find("/links/0/host_to_device_GBps"),
            std::string::npos);
}

TEST(Catalog, StorageScopeDefaultsToPerNode) {
  Catalog catalog = small_catalog();
  catalog.overlay_text(R"({"storage": [
    {"id": "nvme", "name": "NVMe", "read_GBps": 7, "source": "s"},
    {"id": "nfs", "name": "NFS", "read_GBps": 12.5, "scope": "shared", "source": "s"}]})",
                       "user.json");
  EXPECT_EQ(catalog.storage("nvme").scope, StorageScope::per_node);
  EXPECT_EQ(catalog.storage("nfs").scope, StorageScope::shared);
  EXPECT_EQ(to_string(StorageScope::shared), "shared");
}

TEST(CatalogErrors, StorageScopeMustBeKnown) {
  EXPECT_EQ(error_of(R"({"storage": [
    {"id": "nvme", "name": "NVMe", "read_GBps": 7, "scope": "rack", "source": "s"}]})"),
            "user.json: /storage/0/scope: 'rack' is not one of: per-node, shared");
}

TEST(Catalog, ReadsALinksDomainBoundAndLatentAttention) {
  Catalog catalog = small_catalog();
  EXPECT_FALSE(catalog.link("roce").max_domain_gpus.has_value());
  catalog.overlay_text(R"({"links": [{"id": "nvlink4", "name": "NVLink 4", "connects": "GPU",
    "tier": "scale-up", "headline_GBps": 900, "headline_convention": "both-directions-summed",
    "per_direction_GBps": 450, "latency_us": 1, "max_domain_gpus": 256, "source": "s"}],
    "models": [{"id": "mla", "name": "MLA", "hidden": 7168, "layers": 61, "total_params": 671e9,
    "default_dtype": "bf16", "attention_heads": 128, "kv_heads": 128, "head_dim": 128,
    "intermediate_size": 18432, "vocab_size": 129280, "kv_lora_rank": 512,
    "qk_rope_head_dim": 64, "source": "s"}]})",
                       "user.json");
  EXPECT_EQ(catalog.link("nvlink4").max_domain_gpus, 256);
  const Model& mla = catalog.model("mla");
  ASSERT_TRUE(mla.latent_attention.has_value());
  EXPECT_EQ(mla.latent_attention->kv_lora_rank, 512);
  EXPECT_EQ(mla.latent_attention->qk_rope_head_dim, 64);
  EXPECT_FALSE(catalog.model("m70").latent_attention.has_value());
}

/// The error of loading a system "s" of h100 GPUs with these parts.
std::string system_error(const std::string& scale_up, int domain, int per_node,
                         const std::string& scale_out) {
  return error_of(R"({"systems": [{"id": "s", "name": "S", "gpu": "h100", "gpus_per_node": )" +
                  std::to_string(per_node) + R"(, "scale_up_link": ")" + scale_up +
                  R"(", "scale_up_domain": )" + std::to_string(domain) +
                  R"(, "scale_out_link": ")" + scale_out + R"(", "source": "s"}]})");
}

TEST(CatalogErrors, ContradictoryHardwareIsRejected) {
  // A GPU whose domain exceeds its link's bound.
  EXPECT_NE(error_of(R"({"links": [{"id": "nvlink4", "name": "NVLink 4", "connects": "GPU",
    "tier": "scale-up", "headline_GBps": 900, "headline_convention": "both-directions-summed",
    "per_direction_GBps": 450, "latency_us": 1, "max_domain_gpus": 4, "source": "s"}]})")
                .find("gpu 'h100': scale_up_domain 8: nvlink4 connects at most 4 GPUs"),
            std::string::npos);
  // A system whose nodes are joined by a scale-up link, or whose domain's GPUs are joined by a
  // scale-out link.
  EXPECT_NE(system_error("nvlink4", 8, 8, "nvlink4")
                .find("system 's': scale_out_link 'nvlink4' is a scale-up link"),
            std::string::npos);
  EXPECT_NE(system_error("roce", 8, 8, "nvlink4")
                .find("system 's': scale_up_link: 'roce' is a scale-out link"),
            std::string::npos);
  // A GPU whose domain is joined by a CPU-to-GPU link, and a node of 6 in domains of 4.
  EXPECT_NE(error_of(R"({"links": [{"id": "c2c", "name": "C2C", "connects": "CPU <-> GPU",
    "tier": "host", "gpu_to_gpu": false, "headline_GBps": 900,
    "headline_convention": "both-directions-summed", "per_direction_GBps": 450,
    "latency_us": 1, "source": "s"}],
    "gpus": [{"id": "g", "name": "G", "hbm_GB": 80, "hbm_bandwidth_GBps": 3350,
    "dense_tflops": {"bf16": 989}, "scale_up_link": "c2c", "scale_up_domain": 2,
    "achievable_mfu": 0.5, "source": "s"}]})")
                .find("gpu 'g': scale_up_link: c2c joins CPU <-> GPU"),
            std::string::npos);
  EXPECT_NE(system_error("nvlink4", 4, 6, "roce")
                .find("scale_up_domain 4 does not divide the 6-GPU node"),
            std::string::npos);
  // A GPU fabric is a scale-up link between GPUs: not a CPU-to-GPU link, nor a NIC.
  EXPECT_NE(error_of(R"({"links": [{"id": "c2c", "name": "C2C", "connects": "CPU <-> GPU",
    "tier": "host", "gpu_to_gpu": false, "gpu_fabric": "nvlink", "headline_GBps": 900,
    "headline_convention": "both-directions-summed", "per_direction_GBps": 450,
    "latency_us": 1, "source": "s"}]})")
                .find("/links/0/gpu_fabric"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"links": [{"id": "x", "name": "X", "connects": "GPU <-> GPU",
    "tier": "scale-up", "gpu_fabric": "ualink", "headline_GBps": 900,
    "headline_convention": "both-directions-summed", "per_direction_GBps": 450,
    "latency_us": 1, "source": "s"}]})")
                .find("nvlink, xgmi"),
            std::string::npos);
}

} // namespace

TEST(Catalog, AHuggingFaceIdNamesTheModelWhoseCheckpointItIs) {
  const Catalog catalog = Catalog::shipped();
  // Checkpoint ids from the models' published Hugging Face pages (catalog checkpoints).
  EXPECT_EQ(catalog.model("meta-llama/Llama-3.1-70B-Instruct").id, "llama-3.1-70b");
  EXPECT_EQ(catalog.model("NVIDIA/llama-3.1-70b-instruct-fp8").id, "llama-3.1-70b");
  EXPECT_EQ(catalog.model("deepseek-ai/DeepSeek-V3").id, "deepseek-v3");
  // Any other id: its name after the organisation, and the model it begins with suggested.
  try {
    (void)catalog.model("someone/Llama-3.1-8B-Instruct-AWQ");
    FAIL() << "an unknown Hugging Face id was accepted";
  } catch (const LookupError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("did you mean 'llama-3.1-8b'?"), std::string::npos) << message;
    EXPECT_NE(message.find("someone/Llama-3.1-8B-Instruct-AWQ"), std::string::npos) << message;
  }
}

} // namespace icx::unit_catalog
