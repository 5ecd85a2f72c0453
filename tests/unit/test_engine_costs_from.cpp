// An engine whose entry leaves cost figures out takes them from another engine (costs_from):
// read, resolved once the catalog is read, written back as given, and stated in its words.
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "icx/base/units.hpp"
#include "icx/catalog/catalog.hpp"
#include "icx/catalog/json.hpp"
#include "icx/words/engine.hpp"
#include "test_fixtures.hpp"

namespace icx::unit_engine_costs_from {
namespace {

/// An engine "e" whose costs object is `costs` (none when empty) and whose lender is `lender`.
std::string borrower(const std::string& lender, const std::string& costs) {
  return R"({"engines": [{"id": "e", "name": "E", "version": "1", "impl": "vllm",
    "scheduler": {"default": {"max_batch": 8, "prefill_chunk": 512}}, "policy": "decode-first",
    )" + (costs.empty() ? std::string() : R"("costs": )" + costs + ",") +
         R"("costs_from": ")" + lender + R"(", "source": "s"}]})";
}

TEST(EngineCostsFrom, AnEngineTakesTheFiguresItsEntryLeavesOut) {
  Catalog catalog = Catalog::shipped();
  catalog.overlay_text(borrower("sglang", R"({"layer_us": 30, "sequence_us": 40})"), "user.json");
  const Engine& e = catalog.engine("e");
  // SGLang's shipped entry: no time per step, 17,599 µs per request, 64,393 µs per prefill step.
  EXPECT_DOUBLE_EQ(e.costs.step.value(), 0);
  EXPECT_NEAR(e.costs.request.value(), 17599e-6, 1e-12);
  EXPECT_NEAR(e.costs.prefill_step.value(), 64393e-6, 1e-12);
  // Its own.
  EXPECT_NEAR(e.costs.layer.value(), 30e-6, 1e-12);
  EXPECT_NEAR(e.costs.sequence.value(), 40e-6, 1e-12);
  EXPECT_EQ(e.borrowed_costs,
            (std::vector<std::string>{"step_us", "request_us", "prefill_step_us",
                                      "prefill_pass_scale", "prompt_scale", "context_walk_bytes"}));
}

TEST(EngineCostsFrom, ABorrowedFigureFollowsItsLendersOverlay) {
  Catalog catalog = Catalog::shipped();
  catalog.overlay_text(borrower("sglang", R"({"layer_us": 30})"), "user.json");
  catalog.overlay_text(R"({"engines": [{"id": "sglang", "name": "S", "version": "2",
    "impl": "sglang", "scheduler": {"default": {"max_batch": 8, "prefill_chunk": 512}},
    "policy": "prefill-first", "costs": {"step_us": 900, "layer_us": 5, "request_us": 100},
    "source": "s"}]})",
                       "lender.json");
  const Engine& e = catalog.engine("e");
  EXPECT_NEAR(e.costs.step.value(), 900e-6, 1e-12);
  EXPECT_NEAR(e.costs.request.value(), 100e-6, 1e-12);
  EXPECT_NEAR(e.costs.layer.value(), 30e-6, 1e-12);
  EXPECT_DOUBLE_EQ(e.costs.prefill_step.value(), 0);
}

TEST(EngineCostsFrom, NamesAnotherEngineWithCostsOfItsOwn) {
  const Catalog shipped = Catalog::shipped();
  EXPECT_EQ(test::catalog_error(shipped, borrower("nope", "")),
            "user.json: engine 'e': costs_from 'nope' is not another engine's id; name the "
            "engine whose costs stand for this one's");
  EXPECT_EQ(test::catalog_error(shipped, borrower("e", "")),
            "user.json: engine 'e': costs_from 'e' is not another engine's id; name the engine "
            "whose costs stand for this one's");
  EXPECT_EQ(test::catalog_error(shipped, borrower("vllm-v0", "")),
            "user.json: engine 'e': costs_from 'vllm-v0' borrows its own costs from 'vllm'; "
            "name an engine with costs of its own");
}

TEST(EngineCostsFrom, WithoutALenderEveryRequiredFigureIsGiven) {
  std::string text = borrower("sglang", R"({"layer_us": 30, "request_us": 5})");
  text.replace(text.find(R"("costs_from": "sglang", )"), 24, "");
  const std::string error = test::catalog_error(Catalog{}, text);
  EXPECT_NE(error.find("/engines/0/costs"), std::string::npos) << error;
  EXPECT_NE(error.find("step_us"), std::string::npos) << error;
}

TEST(EngineCostsFrom, WritesItsOwnFiguresAndItsLender) {
  Catalog catalog = Catalog::shipped();
  catalog.overlay_text(borrower("sglang", R"({"layer_us": 30, "prompt_scale": 1})"), "user.json");
  const nlohmann::ordered_json written = catalog.engine("e");
  EXPECT_EQ(written["costs_from"], "sglang");
  // A neutral figure of its own is written too: left out, it would be borrowed.
  EXPECT_EQ(written["costs"], nlohmann::ordered_json::parse(R"({"layer_us": 30,
    "prompt_scale": 1})"));
  Catalog again = Catalog::shipped();
  again.overlay_text(nlohmann::ordered_json{{"engines", {written}}}.dump(), "again.json");
  EXPECT_EQ(again.engine("e").costs, catalog.engine("e").costs);
  EXPECT_EQ(again.engine("e").borrowed_costs, catalog.engine("e").borrowed_costs);
}

TEST(EngineCostsFrom, TheWordsSayWhichFiguresAreAnothersAssumed) {
  const Catalog catalog = Catalog::shipped();
  const std::string v0 = engine_costs_text(catalog.engine("vllm-v0"));
  EXPECT_NE(v0.find("(taken from catalog engine 'vllm', assumed: no published run of this engine "
                    "was fitted; catalog engine 'vllm-v0')"),
            std::string::npos)
      << v0;
  const std::string nim = engine_costs_text(catalog.engine("trtllm-engine"));
  EXPECT_NE(nim.find("(the request figure taken from catalog engine 'vllm', assumed; the rest "
                     "fitted on published serving runs; catalog engine 'trtllm-engine')"),
            std::string::npos)
      << nim;
  const std::string trtllm = engine_costs_text(catalog.engine("trtllm"));
  EXPECT_NE(trtllm.find("(the step, layer and request figures taken from catalog engine 'vllm'"),
            std::string::npos)
      << trtllm;
  const std::string vllm = engine_costs_text(catalog.engine("vllm"));
  EXPECT_NE(vllm.find("(fitted on published serving runs; catalog engine 'vllm')"),
            std::string::npos)
      << vllm;
}

} // namespace
} // namespace icx::unit_engine_costs_from
