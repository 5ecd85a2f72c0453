// Published offloaded decode rates (tests/data/offload.csv) against icx offload's expected
// step: each held-out row within its stated bound; the measured and predicted rates printed.
#include "icx/catalog.hpp"
#include "icx/host_link.hpp"
#include "icx/offload_report.hpp"

#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace icx {
namespace {

using Row = std::map<std::string, std::string>;

std::vector<std::string> cells_of(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream fields(line);
  for (std::string cell; std::getline(fields, cell, ',');) {
    cells.push_back(cell);
  }
  return cells;
}

std::vector<Row> published_offloads() {
  std::ifstream in(std::string(ICX_TEST_DATA_DIR) + "/offload.csv");
  EXPECT_TRUE(in) << "cannot open offload.csv";
  std::vector<Row> rows;
  std::vector<std::string> header;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line.front() == '#') {
      continue;
    }
    const std::vector<std::string> cells = cells_of(line);
    if (header.empty()) {
      header = cells;
      continue;
    }
    EXPECT_EQ(cells.size(), header.size()) << line;
    Row row;
    for (std::size_t i = 0; i < header.size() && i < cells.size(); ++i) {
      row[header[i]] = cells[i];
    }
    rows.push_back(row);
  }
  return rows;
}

/// Tokens per second icx expects for a held-out row: batch / expected step, the resident
/// bytes held in the HBM the run's GPU held them in.
double predicted_tokens_per_s(const Catalog& catalog, const Row& row) {
  Gpu gpu = catalog.gpu(row.at("gpu"));
  gpu.hbm_capacity = Bytes::of(std::stod(row.at("hbm_held_GB")) * 1e9);
  const Model& model = catalog.model(row.at("model"));
  OffloadRequest request;
  request.model = &model;
  request.dtype = &catalog.dtype(row.at("dtype"));
  request.gpu = &gpu;
  request.gpus = std::stoi(row.at("gpus"));
  request.reserve = 0;
  request.host_links = {&catalog.link(row.at("host_link"))};
  request.engine = *parse_enum<OffloadEngine>(row.at("engine"));
  const OffloadReport report = offload_report(request);
  return std::stod(row.at("batch")) / report.result.links.front().expected_step->value();
}

TEST(OffloadValidation, HeldOutRunsWithinTheirBound) {
  const Catalog catalog = Catalog::shipped();
  int held_out = 0;
  for (const Row& row : published_offloads()) {
    const double measured =
        std::stod(row.at("measured_tokens_per_s").empty() ? "0" : row.at("measured_tokens_per_s"));
    if (row.at("use") != "held-out") {
      EXPECT_EQ(row.at("use"), "outside") << row.at("hardware");
      EXPECT_FALSE(row.at("note").empty()) << "an outside row says why: " << row.at("hardware");
      continue;
    }
    ++held_out;
    const double predicted = predicted_tokens_per_s(catalog, row);
    const double bound = std::stod(row.at("bound"));
    std::cout << row.at("hardware") << " " << row.at("model") << ": measured " << measured
              << " tok/s, predicted " << predicted << " tok/s (x" << predicted / measured << ")\n";
    EXPECT_GE(predicted, measured / bound) << row.at("source");
    EXPECT_LE(predicted, measured * bound) << row.at("source");
  }
  EXPECT_GE(held_out, 1);
}

} // namespace
} // namespace icx
