#include "icx/measured/nccl_log.hpp"

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "icx/base/error.hpp"

namespace icx::unit_nccl_log {
namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(ICX_TEST_DATA_DIR) + "/nccl-tests/" + name, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string error_of(const std::string& text) {
  try {
    (void)parse_nccl_test_log(text, "log");
  } catch (const InputError& error) {
    return error.what();
  }
  return "(no error)";
}

const std::string header =
    "#                                                              out-of-place                 "
    "      in-place\n"
    "#       size         count      type   redop    root     time   algbw   busbw #wrong     "
    "time   algbw   busbw #wrong\n"
    "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            "
    "(us)  (GB/s)  (GB/s)\n";
const std::string row_1m = "     1048576        262144     float     sum      -1    203.2    5.16 "
                           "   9.68      0    207.2    5.06    9.49      0\n";
const std::string trailer = "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 70.742 \n";

TEST(NcclLog, ReadsAFullPublishedLog) {
  // lessizzmore/create-a3mega-ztan-fork: all_reduce_perf -b 8 -e 8G on 16 H100s, with a
  // Markdown preamble before the tool's output.
  const NcclTestLog log = parse_nccl_test_log(fixture("a3mega-h100-16gpu-all_reduce.log"), "a3");
  EXPECT_EQ(log.ranks, 16);
  ASSERT_EQ(log.rows.size(), 31U); // 8 B … 8 GiB, doubling: 2^3 … 2^33
  EXPECT_EQ(log.rows.front().size.value(), 8.0);
  EXPECT_NEAR(log.rows.front().out_of_place.time.value(), 135.8e-6, 1e-12);
  ASSERT_TRUE(log.rows.front().in_place);
  EXPECT_NEAR(log.rows.front().in_place->time.value(), 123.5e-6, 1e-12);
  EXPECT_NEAR(log.rows.front().mean_time().value(), (135.8e-6 + 123.5e-6) / 2, 1e-12);
  EXPECT_EQ(log.rows.back().size.value(), 8589934592.0);
  EXPECT_NEAR(log.rows.back().out_of_place.busbw.value(), 338.82e9, 1.0);
  EXPECT_NEAR(log.average_busbw.value(), 70.742e9, 1.0);
  EXPECT_EQ(log.rows.back().line, 62U);
}

TEST(NcclLog, ReadsAnExcerptStartingAtTheLastRank) {
  // coreweave/nccl-tests pull request 43: a 72-GPU NVL72 run.
  const NcclTestLog log = parse_nccl_test_log(fixture("nvl72-gb200-all_reduce.log"), "nvl72");
  EXPECT_EQ(log.ranks, 72);
  ASSERT_EQ(log.rows.size(), 5U);
  EXPECT_NEAR(log.rows[3].out_of_place.time.value(), 10094e-6, 1e-12);
}

TEST(NcclLog, NamesTheTestAndSkipsNcclDiagnostics) {
  const std::string text = "# nccl-tests version 2.20.0 (b4d5bee)\n"
                           "# Collective test starting: all_gather_perf\n"
                           "NCCL version 2.21.5+cuda12.4\n" +
                           header + "host:123:456 [0] NCCL INFO comm 0x1 rank 0 - Init COMPLETE\n" +
                           row_1m + trailer;
  const NcclTestLog log = parse_nccl_test_log(text, "log");
  EXPECT_EQ(log.test, "all_gather_perf");
  EXPECT_EQ(log.rows.size(), 1U);
  EXPECT_FALSE(log.ranks);
}

TEST(NcclLog, ReadsOlderColumnsWithoutRoot) {
  // Older nccl-tests (NVIDIA/nccl-tests issue 107): no root column, "error" for "#wrong".
  const std::string text =
      "#       size         count      type   redop     time   algbw   busbw  error     time   "
      "algbw   busbw  error\n"
      "#        (B)    (elements)                       (us)  (GB/s)  (GB/s)            (us)  "
      "(GB/s)  (GB/s)\n"
      "  1310720000     327680000     float     sum    1.2e+06    1.09    1.09  0e+00    1.2e+06 "
      "   1.09    1.09  0e+00\n" +
      trailer;
  const NcclTestLog log = parse_nccl_test_log(text, "old");
  ASSERT_EQ(log.rows.size(), 1U);
  EXPECT_NEAR(log.rows[0].out_of_place.time.value(), 1.2, 1e-12);
}

TEST(NcclLog, ErrorsNameTheLine) {
  // A trimmed log without its trailer (li-plus/playground: sendrecv_perf on 8 A100s).
  EXPECT_EQ(error_of(fixture("a100-sendrecv-trimmed.log")),
            "log:9: the log ends before its '# Avg bus bandwidth' line; it looks truncated");
  // A row cut in the middle (microsoft/mscclpp pull request 507, as excerpted).
  EXPECT_EQ(error_of(fixture("mscclpp-nvls-cut-mid-row.log")),
            "log:10: expected 13 fields as in the column header on line 2, got 11");
  EXPECT_EQ(error_of(header + "  12x  3 float sum -1 1.0 1.0 1.0 0 1.0 1.0 1.0 0\n" + trailer),
            "log:4: size '12x' is not a whole number of bytes from 1 to 2^53");
  EXPECT_EQ(error_of(header + "  1024  256 float sum -1 -3 1.0 1.0 0 1.0 1.0 1.0 0\n" + trailer),
            "log:4: time '-3' is not a positive number");
  EXPECT_EQ(error_of(header + trailer), "log:2: the result table has no rows");
  EXPECT_EQ(error_of("hello\n"), "log: no nccl-tests result table (expected a column header line "
                                 "'#  size  count  type … time  algbw  busbw …')");
  EXPECT_EQ(error_of(header + row_1m + trailer + header),
            "log:8: a second result table; give one nccl-tests run per file");
  EXPECT_EQ(error_of(header + row_1m + trailer + row_1m),
            "log:7: text after the '# Avg bus bandwidth' line; give one nccl-tests run per file");
  EXPECT_EQ(error_of(header + row_1m + "# Avg bus bandwidth    : lots\n"),
            "log:5: '# Avg bus bandwidth' line without a number of GB/s");
}

TEST(NcclLog, RejectsARankBeyondTheLargestDomain) {
  // A fuzzer's input: a billion ranks reached the ring arithmetic (2(n-1) overflowed an int).
  std::ifstream in(std::string(ICX_TEST_DATA_DIR) + "/../fuzz/seeds/nccl_log/billion_ranks");
  std::ostringstream seed;
  seed << in.rdbuf();
  ASSERT_FALSE(seed.str().empty());
  // The largest domain is 2^20 GPUs: ranks 0 to 1048575.
  EXPECT_EQ(error_of(seed.str()),
            "log:3: rank '1176847186' is not a whole number from 0 to 1048575");
  EXPECT_EQ(error_of("#  Rank 1048576 Group 0\n" + header + row_1m + trailer),
            "log:1: rank '1048576' is not a whole number from 0 to 1048575");
  EXPECT_EQ(error_of("#  Rank 2.5 Group 0\n" + header + row_1m + trailer),
            "log:1: rank '2.5' is not a whole number from 0 to 1048575");
  EXPECT_EQ(error_of("#  Rank -1 Group 0\n" + header + row_1m + trailer),
            "log:1: rank '-1' is not a whole number from 0 to 1048575");
  EXPECT_EQ(
      parse_nccl_test_log("#  Rank 1048575 Group 0\n" + header + row_1m + trailer, "log").ranks,
      1048576);
}

TEST(NcclLog, AcceptsWindowsLineEnds) {
  std::string text = header + row_1m + trailer;
  std::string crlf;
  for (const char c : text) {
    crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  }
  EXPECT_EQ(parse_nccl_test_log(crlf, "crlf").rows.size(), 1U);
}

std::string ranks_on(const std::vector<std::string>& hosts) {
  std::string text = "# Using devices\n";
  for (std::size_t rank = 0; rank < hosts.size(); ++rank) {
    text += "#  Rank " + std::to_string(rank) + " Group  0 Pid 100 on " + hosts[rank] +
            " device  0 [0000:04:00] NVIDIA H100 80GB HBM3\n";
  }
  return text + header + row_1m + trailer;
}

TEST(NcclLog, CountsTheRanksOfEachHost) {
  // The published two-node log lists ranks 0-7 on ztan-mig-235z and 8-15 on ztan-mig-gq73.
  const NcclTestLog a3 = parse_nccl_test_log(fixture("a3mega-h100-16gpu-all_reduce.log"), "a3");
  EXPECT_EQ(a3.rank_hosts.at(7), "ztan-mig-235z");
  EXPECT_EQ(a3.rank_hosts.at(8), "ztan-mig-gq73");
  EXPECT_EQ(ranks_per_host(a3, "a3"), 8);
  const NcclTestLog four = parse_nccl_test_log(ranks_on({"a", "b", "a", "b"}), "log");
  EXPECT_EQ(ranks_per_host(four, "log"), 2);
  // A trimmed list (ranks 0 and 3 of 4) leaves the hosts of ranks 1 and 2 unknown.
  std::string trimmed = ranks_on({"a", "a", "b", "b"});
  trimmed.erase(trimmed.find("#  Rank 1"), trimmed.find("#  Rank 3") - trimmed.find("#  Rank 1"));
  EXPECT_EQ(parse_nccl_test_log(trimmed, "log").ranks, 4);
  EXPECT_EQ(ranks_per_host(parse_nccl_test_log(trimmed, "log"), "log"), std::nullopt);
  // A table without "# Using devices" names no hosts.
  EXPECT_EQ(ranks_per_host(parse_nccl_test_log(header + row_1m + trailer, "log"), "log"),
            std::nullopt);
}

TEST(NcclLog, RejectsHostsOfUnequalSize) {
  // Three ranks on host a and one on b: no node size fits both.
  const NcclTestLog ragged = parse_nccl_test_log(ranks_on({"a", "a", "a", "b"}), "log");
  try {
    (void)ranks_per_host(ragged, "log");
    FAIL() << "a ragged host count was accepted";
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(), "log: the hosts run different numbers of ranks (1 on b, 3 on a); "
                               "icx models nodes of equal size");
  }
}

TEST(NcclLog, RefusesARowWithWrongResults) {
  // nccl-tests' own check (-c 1) counted 3 wrong results in place: the run is broken.
  const std::string wrong = "     1048576        262144     float     sum      -1    203.2    5.16 "
                            "   9.68      0    207.2    5.06    9.49      3\n";
  EXPECT_EQ(error_of(header + wrong + trailer),
            "log:4: nccl-tests counted 3 wrong results (#wrong): the run's data was corrupted, "
            "so its times are not a measurement; rerun it");
  // Without the check (-c 0) the column says N/A: a measurement still.
  const std::string unchecked = "     1048576        262144     float     sum      -1    203.2    "
                                "5.16    9.68    N/A    207.2    5.06    9.49    N/A\n";
  EXPECT_EQ(parse_nccl_test_log(header + unchecked + trailer, "log").rows.size(), 1U);
}

TEST(NcclLog, RefusesRanksThatAreNotWholeProcesses) {
  // "nGpus 3" per process, yet ranks 0…7 listed: 8 is not a multiple of 3.
  std::string ranks = "# nThread 1 nGpus 3 minBytes 8 maxBytes 8589934592 step: 2(factor)\n";
  for (int rank = 0; rank < 8; ++rank) {
    ranks += "#  Rank  " + std::to_string(rank) + " Group  0 Pid 100 on host-a device  " +
             std::to_string(rank) + " [0x00] NVIDIA H100\n";
  }
  EXPECT_EQ(error_of(ranks + header + row_1m + trailer),
            "log:1: the header runs 3 ranks per process (nThread × nGpus), but 8 ranks are "
            "listed, not a whole number of processes; give the log of one run as nccl-tests "
            "printed it");
  // One GPU per process (MPI, eight processes): eight ranks are eight whole processes.
  ranks.replace(ranks.find("nGpus 3"), 7, "nGpus 1");
  EXPECT_EQ(parse_nccl_test_log(ranks + header + row_1m + trailer, "log").ranks, 8);
}

} // namespace
} // namespace icx::unit_nccl_log
