#include "icx/topo/matrix.hpp"

#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "icx/base/error.hpp"
#include "topo_fixtures.hpp"

namespace icx::unit_topo {
namespace {

using test::fixture;
using test::fixture_dir;

std::string error_of(const std::string& text) {
  try {
    (void)parse_topo(text);
  } catch (const InputError& error) {
    return error.what();
  }
  return "(no error)";
}

/// What INDEX.csv says a correct reader concludes, written out per fixture.
struct Expected {
  std::string file;
  TopoSource source = TopoSource::nvidia_smi;
  int gpus = 0;
  int nics = 0;
  /// INDEX.csv nvlink_pairs: the NVLink/XGMI pairs and their token.
  std::vector<std::pair<int, int>> scale_up_pairs;
  std::string scale_up_token;
  /// INDEX.csv pcie_worst_path; nullopt for "none".
  std::optional<PathKind> worst;
  /// INDEX.csv nics_per_gpu_pix, per GPU.
  std::vector<int> nics_pix;
  /// INDEX.csv numa_nodes.
  int numa_nodes = 0;
  ScaleUpWiring wiring = ScaleUpWiring::none;
};

std::vector<std::pair<int, int>> all_pairs(int gpus) {
  std::vector<std::pair<int, int>> pairs;
  for (int a = 0; a < gpus; ++a) {
    for (int b = a + 1; b < gpus; ++b) {
      pairs.emplace_back(a, b);
    }
  }
  return pairs;
}

std::vector<int> each(int gpus, int value) {
  return std::vector<int>(static_cast<std::size_t>(gpus), value);
}

const std::vector<Expected>& index_csv() {
  using enum PathKind;
  using enum ScaleUpWiring;
  static const std::vector<Expected> rows = {
      {"hgx-h100-13nic-ib-eth.txt", TopoSource::nvidia_smi, 8, 13, all_pairs(8), "NV18",
       std::nullopt, each(8, 1), 2, switched},
      {"hgx-h200-10nic-tabs.txt",
       TopoSource::nvidia_smi,
       8,
       10,
       all_pairs(8),
       "NV18",
       std::nullopt,
       {1, 1, 1, 3, 1, 1, 1, 1},
       2,
       switched},
      {"hgx-h20-8nic-sglang.txt", TopoSource::nvidia_smi, 8, 8, all_pairs(8), "NV18", std::nullopt,
       each(8, 1), 2, switched},
      {"h20-vm-8nic-nolegend.txt", TopoSource::nvidia_smi, 8, 8, all_pairs(8), "NV18", std::nullopt,
       each(8, 1), 2, switched},
      {"h800-kvm-vm-11nic-phb.txt", TopoSource::nvidia_smi, 8, 11, all_pairs(8), "NV8",
       std::nullopt, each(8, 1), 2, switched},
      {"hgx-a100-8nic-roce-deepep.txt", TopoSource::nvidia_smi, 8, 8, all_pairs(8), "NV12",
       std::nullopt, each(8, 0), 2, switched},
      {"gb200-4gpu-8nic-grace.txt", TopoSource::nvidia_smi, 4, 8, all_pairs(4), "NV18",
       std::nullopt, each(4, 0), 2, switched},
      {"hgx-b200-vastai-container.txt", TopoSource::nvidia_smi, 8, 0, all_pairs(8), "NV18",
       std::nullopt, each(8, 0), 2, switched},
      {"aws-p5-48xlarge-8xH100.txt", TopoSource::nvidia_smi, 8, 0, all_pairs(8), "NV18",
       std::nullopt, each(8, 0), 2, switched},
      {"aws-p4d-24xlarge-8xA100.txt", TopoSource::nvidia_smi, 8, 0, all_pairs(8), "NV12",
       std::nullopt, each(8, 0), 2, switched},
      {"aws-g6e-12xlarge-4xL40S.txt",
       TopoSource::nvidia_smi,
       4,
       0,
       {},
       "",
       node,
       each(4, 0),
       1,
       none},
      // Four NV4 per pair over three peers is each A100's 12 links: a direct mesh.
      {"perlmutter-4xa100-nv4.txt", TopoSource::nvidia_smi, 4, 0, all_pairs(4), "NV4", std::nullopt,
       each(4, 0), 4, direct},
      {"4xa30-nv4-bridge-pairs-1nic.txt",
       TopoSource::nvidia_smi,
       4,
       1,
       {{0, 1}, {2, 3}},
       "NV4",
       sys,
       {0, 0, 0, 1},
       2,
       direct},
      {"2x-rtx3090-nvlink-bridge.txt",
       TopoSource::nvidia_smi,
       2,
       0,
       {{0, 1}},
       "NV4",
       std::nullopt,
       each(2, 0),
       1,
       direct},
      {"8x-rtxa5000-pcie-savio4.txt",
       TopoSource::nvidia_smi,
       8,
       2,
       {},
       "",
       sys,
       each(8, 0),
       2,
       none},
      {"mi308x-8gpu-rocm-smi.txt", TopoSource::rocm_smi, 8, 0, all_pairs(8), "XGMI", std::nullopt,
       each(8, 0), 2, direct},
      {"mi300a-4apu-rocm-smi.txt", TopoSource::rocm_smi, 4, 0, all_pairs(4), "XGMI", std::nullopt,
       each(4, 0), 4, direct},
      {"mi210-4gpu-archer2-rocm-smi.txt", TopoSource::rocm_smi, 4, 0, all_pairs(4), "XGMI",
       std::nullopt, each(4, 0), 4, direct},
  };
  return rows;
}

TEST(Topo, EveryPublishedOutputIsListedHere) {
  SKIP_WITHOUT_FIXTURES();
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(fixture_dir())) {
    if (entry.path().extension() == ".txt") {
      files.push_back(entry.path().filename().string());
    }
  }
  EXPECT_EQ(files.size(), index_csv().size());
  for (const std::string& file : files) {
    EXPECT_TRUE(std::ranges::any_of(index_csv(), [&](const Expected& row) {
      return row.file == file;
    })) << file;
  }
}

TEST(Topo, EveryPublishedOutputConcludesWhatIndexCsvSays) {
  SKIP_WITHOUT_FIXTURES();
  for (const Expected& expected : index_csv()) {
    SCOPED_TRACE(expected.file);
    const TopoMatrix matrix = parse_topo(fixture(expected.file));
    const NodeTopology node = describe_topology(matrix);
    EXPECT_EQ(node.source, expected.source);
    EXPECT_EQ(node.gpus.size(), static_cast<std::size_t>(expected.gpus));
    EXPECT_EQ(node.nics.size(), static_cast<std::size_t>(expected.nics));
    std::vector<std::pair<int, int>> scale_up;
    for (const GpuPair& pair : node.pairs) {
      if (is_scale_up(pair.kind)) {
        scale_up.emplace_back(pair.a, pair.b);
        EXPECT_EQ(pair.path, expected.scale_up_token);
      } else {
        EXPECT_EQ(pair.links, 0);
      }
    }
    EXPECT_EQ(scale_up, expected.scale_up_pairs);
    EXPECT_EQ(node.worst_pcie_path, expected.worst);
    EXPECT_EQ(node.nics_per_gpu_pix, expected.nics_pix);
    EXPECT_EQ(node.numa_nodes, expected.numa_nodes);
    EXPECT_EQ(node.wiring, expected.wiring);
  }
}

TEST(Topo, ReadsTheDgxStyleMatrixWithItsNicLegend) {
  SKIP_WITHOUT_FIXTURES();
  const TopoMatrix matrix = parse_topo(fixture("hgx-h100-13nic-ib-eth.txt"));
  const NodeTopology node = describe_topology(matrix);
  ASSERT_EQ(node.scale_up_domains.size(), 1U);
  EXPECT_EQ(node.scale_up_domains[0], (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  for (const GpuPair& pair : node.pairs) {
    EXPECT_EQ(pair.kind, PathKind::nvlink);
    EXPECT_EQ(pair.links, 18);
  }
  // Two GPUs and two IB NICs per PCIe switch: one NIC at PIX and one at PXB per GPU.
  EXPECT_EQ(node.nics_per_gpu, std::vector<int>(8, 2));
  ASSERT_EQ(node.nics.size(), 13U);
  EXPECT_EQ(node.nics[0].name, "mlx5_ib0");
  EXPECT_EQ(node.nics[0].path, PathKind::pix);
  EXPECT_EQ(node.nics[0].nearest_gpus, std::vector<int>{0});
  EXPECT_EQ(node.nics[7].nearest_gpus, std::vector<int>{7});
  // The Ethernet ports are NODE to GPU4-7 and SYS to GPU0-3.
  EXPECT_EQ(node.nics[8].name, "mlx5_eth0");
  EXPECT_EQ(node.nics[8].path, PathKind::node);
  EXPECT_EQ(node.nics[8].nearest_gpus, (std::vector<int>{4, 5, 6, 7}));
  EXPECT_EQ(matrix.devices[0].cpu_affinity, "0-55,112-167");
  EXPECT_EQ(matrix.devices[4].numa_affinity, "1");
  EXPECT_EQ(matrix.devices[4].gpu_numa_id, "N/A");
  EXPECT_EQ(matrix.devices[20].label, "NIC12");
  EXPECT_EQ(matrix.devices[20].name(), "mlx5_eth4");
}

TEST(Topo, ReadsTabsAndAnsiEscapes) {
  SKIP_WITHOUT_FIXTURES();
  const TopoMatrix matrix = parse_topo(fixture("hgx-h200-10nic-tabs.txt"));
  ASSERT_EQ(matrix.devices.size(), 18U);
  EXPECT_EQ(matrix.devices[0].label, "GPU0");
  EXPECT_EQ(matrix.devices[0].cpu_affinity, "0-63,128-191");
  EXPECT_EQ(matrix.devices[0].numa_affinity, "0");
  EXPECT_EQ(matrix.devices[0].gpu_numa_id, "N/A");
  EXPECT_EQ(matrix.devices[8].name(), "mlx5_0");
  EXPECT_TRUE(matrix.devices[8].cpu_affinity.empty());
  const NodeTopology node = describe_topology(matrix);
  // NIC0-NIC2 sit under GPU3's switch.
  for (int nic = 0; nic < 3; ++nic) {
    EXPECT_EQ(node.nics[static_cast<std::size_t>(nic)].nearest_gpus, std::vector<int>{3});
    EXPECT_EQ(node.nics[static_cast<std::size_t>(nic)].path, PathKind::pix);
  }
}

TEST(Topo, ReadsAVmWithoutLegendAndReversedNics) {
  SKIP_WITHOUT_FIXTURES();
  const NodeTopology node = describe_topology(parse_topo(fixture("h20-vm-8nic-nolegend.txt")));
  ASSERT_EQ(node.nics.size(), 8U);
  for (int nic = 0; nic < 8; ++nic) {
    const TopoNic& found = node.nics[static_cast<std::size_t>(nic)];
    EXPECT_EQ(found.name, "NIC" + std::to_string(nic));
    EXPECT_EQ(found.path, PathKind::pix);
    EXPECT_EQ(found.nearest_gpus, std::vector<int>{7 - nic});
  }
}

TEST(Topo, AVmThatFlattensPcieCountsOnlyThePixNicForGpuDirect) {
  SKIP_WITHOUT_FIXTURES();
  const NodeTopology node = describe_topology(parse_topo(fixture("h800-kvm-vm-11nic-phb.txt")));
  // Same-socket NICs are PHB in the VM: beyond PXB, so NCCL does not use them for GDR.
  EXPECT_EQ(node.nics_per_gpu, std::vector<int>(8, 1));
  EXPECT_EQ(node.nics[0].path, PathKind::sys);
  EXPECT_EQ(node.nics[0].nearest_gpus.size(), 8U);
  EXPECT_EQ(node.nics[9].path, PathKind::sys); // PHB only to NIC10
}

TEST(Topo, DualPortNicsAtPxbServeGpuDirectButNotPix) {
  SKIP_WITHOUT_FIXTURES();
  const TopoMatrix matrix = parse_topo(fixture("hgx-a100-8nic-roce-deepep.txt"));
  const NodeTopology node = describe_topology(matrix);
  EXPECT_EQ(node.nics_per_gpu, std::vector<int>(8, 2));
  EXPECT_TRUE(matrix.devices[0].gpu_numa_id.empty()); // older header without GPU NUMA ID
  EXPECT_EQ(matrix.devices[7].cpu_affinity, "32-63,96-127");
}

TEST(Topo, ReadsGraceNumaListsAndGpuNumaIds) {
  SKIP_WITHOUT_FIXTURES();
  const TopoMatrix matrix = parse_topo(fixture("gb200-4gpu-8nic-grace.txt"));
  EXPECT_EQ(matrix.devices[0].numa_affinity, "0,3-9,11-17");
  EXPECT_EQ(matrix.devices[0].gpu_numa_id, "2");
  EXPECT_EQ(matrix.devices[3].gpu_numa_id, "26");
  const NodeTopology node = describe_topology(matrix);
  EXPECT_EQ(node.nics_per_gpu, std::vector<int>(4, 0));
  for (const TopoNic& nic : node.nics) {
    EXPECT_EQ(nic.path, PathKind::sys);
  }
}

TEST(Topo, BridgedPairsAreTwoDomainsAcrossSockets) {
  SKIP_WITHOUT_FIXTURES();
  const NodeTopology node =
      describe_topology(parse_topo(fixture("4xa30-nv4-bridge-pairs-1nic.txt")));
  EXPECT_EQ(node.scale_up_domains, (std::vector<std::vector<int>>{{0, 1}, {2, 3}}));
  EXPECT_EQ(node.nics_per_gpu, (std::vector<int>{0, 0, 1, 1}));
  ASSERT_EQ(node.nics.size(), 1U);
  EXPECT_EQ(node.nics[0].name, "mlx5_0");
  EXPECT_EQ(node.nics[0].nearest_gpus, std::vector<int>{3});
}

TEST(Topo, APcieServerHasOneDomainPerGpu) {
  SKIP_WITHOUT_FIXTURES();
  const TopoMatrix matrix = parse_topo(fixture("8x-rtxa5000-pcie-savio4.txt"));
  EXPECT_EQ(matrix.devices[8].label, "mlx5_0");
  EXPECT_EQ(matrix.devices[8].kind, DeviceKind::nic);
  const NodeTopology node = describe_topology(matrix);
  EXPECT_EQ(node.scale_up_domains.size(), 8U);
  EXPECT_EQ(node.pairs[0].path, "PXB"); // GPU0-GPU1
  EXPECT_EQ(node.nics[0].name, "mlx5_0");
  EXPECT_EQ(node.nics[0].path, PathKind::node);
  EXPECT_EQ(node.nics[0].nearest_gpus, (std::vector<int>{0, 1, 2, 3}));
}

TEST(Topo, PerlmutterNumaAffinityRunsBackwards) {
  SKIP_WITHOUT_FIXTURES();
  const TopoMatrix matrix = parse_topo(fixture("perlmutter-4xa100-nv4.txt"));
  EXPECT_EQ(matrix.devices[0].numa_affinity, "3");
  EXPECT_EQ(matrix.devices[3].numa_affinity, "0");
}

TEST(Topo, ReadsOldAndNewRocmSmiLayouts) {
  SKIP_WITHOUT_FIXTURES();
  for (const char* file : {"mi210-4gpu-archer2-rocm-smi.txt", "mi300a-4apu-rocm-smi.txt"}) {
    SCOPED_TRACE(file);
    const TopoMatrix matrix = parse_topo(fixture(file));
    ASSERT_EQ(matrix.devices.size(), 4U);
    ASSERT_EQ(matrix.weights.size(), 16U);
    EXPECT_EQ(matrix.weights[1], 15);
    EXPECT_EQ(matrix.hops[1], 1);
    EXPECT_EQ(matrix.devices[2].numa_affinity, "2");
    EXPECT_EQ(matrix.path(0, 1).links, 1);
  }
  const TopoMatrix mi308 = parse_topo(fixture("mi308x-8gpu-rocm-smi.txt"));
  EXPECT_EQ(mi308.devices[3].numa_affinity, "0");
  EXPECT_EQ(mi308.devices[4].numa_affinity, "1");
  EXPECT_EQ(describe_topology(mi308).scale_up_domains.size(), 1U);
}

TEST(Topo, PairBandwidthIsLinksTimesThePerLinkFigure) {
  GpuPair nvlink{0, 1, PathKind::nvlink, "NV18", 18};
  EXPECT_EQ(pair_bandwidth_each_way(nvlink, std::nullopt), std::nullopt);
  const auto each_way = pair_bandwidth_each_way(nvlink, BytesPerSecond::of(2.0));
  ASSERT_TRUE(each_way);
  EXPECT_DOUBLE_EQ(each_way->value(), 36.0);
  const GpuPair pcie{0, 1, PathKind::sys, "SYS", 0};
  EXPECT_EQ(pair_bandwidth_each_way(pcie, BytesPerSecond::of(2.0)), std::nullopt);
}

// Small inline matrices ---------------------------------------------------------------

const std::string two_gpus = "\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\n"
                             "GPU0\t X \tNV4\t0-7\t0\n"
                             "GPU1\tNV4\t X \t0-7\t0\n";

TEST(Topo, ReadsAMinimalMatrixAfterAPrompt) {
  const TopoMatrix matrix = parse_topo("$ nvidia-smi topo -m\n" + two_gpus + "\nLegend:\n");
  ASSERT_EQ(matrix.devices.size(), 2U);
  EXPECT_EQ(matrix.path(0, 1).kind, PathKind::nvlink);
  EXPECT_EQ(matrix.path(0, 1).links, 4);
  EXPECT_EQ(matrix.devices[1].cpu_affinity, "0-7");
}

TEST(Topo, ReadsTheOldSocToken) {
  const TopoMatrix matrix = parse_topo("        GPU0    GPU1    CPU Affinity\n"
                                       "GPU0     X      SOC     0-7\n"
                                       "GPU1    SOC      X      8-15\n");
  EXPECT_EQ(matrix.path(0, 1).kind, PathKind::sys);
  EXPECT_EQ(matrix.path(0, 1).token, "SOC");
  EXPECT_EQ(describe_topology(matrix).worst_pcie_path, PathKind::sys);
}

TEST(Topo, ReadsCrlfLinesInsideAMarkdownFence) {
  const TopoMatrix matrix = parse_topo("```\r\n        GPU0    GPU1    CPU Affinity\r\n"
                                       "GPU0     X      PHB     0-7\r\n"
                                       "GPU1    PHB      X      0-7\r\n```\r\n");
  EXPECT_EQ(matrix.path(1, 0).kind, PathKind::phb);
  EXPECT_EQ(matrix.devices[1].cpu_affinity, "0-7");
}

TEST(Topo, ReadsAnAbsentGpuAndUnknownPaths) {
  // GPU2 fell off the bus: the matrix skips it, and the driver cannot tell GPU3's path.
  const TopoMatrix matrix = parse_topo("        GPU0    GPU1    GPU3    CPU Affinity\n"
                                       "GPU0     X      NV12    N/A     0-7\n"
                                       "GPU1    NV12     X      N/A     0-7\n"
                                       "GPU3    N/A     N/A      X      N/A\n");
  const NodeTopology node = describe_topology(matrix);
  EXPECT_EQ(node.gpus, (std::vector<std::string>{"GPU0", "GPU1", "GPU3"}));
  EXPECT_EQ(node.scale_up_domains, (std::vector<std::vector<int>>{{0, 1}, {2}}));
  EXPECT_EQ(node.worst_pcie_path, PathKind::unknown);
  EXPECT_EQ(node.wiring, ScaleUpWiring::direct);
}

TEST(Topo, UnknownTokenNamesLineAndColumn) {
  const std::string text = "nvidia-smi topo -m\n"
                           "        GPU0    GPU1    CPU Affinity\n"
                           "GPU0     X      NV?     0-7\n"
                           "GPU1    NV4      X      0-7\n";
  EXPECT_EQ(error_of(text),
            "line 3, column 17: unknown path 'NV?'; known: X, NV<n>, PIX, PXB, PHB, NODE, SYS");
}

TEST(Topo, ARowWithMissingCellsIsTruncated) {
  const std::string text = "        GPU0    GPU1    GPU2\n"
                           "GPU0     X      PIX     SYS\n"
                           "GPU1    PIX      X      SYS\n"
                           "GPU2    SYS     SYS\n";
  EXPECT_EQ(error_of(text),
            "line 4, column 20: row 'GPU2' has 2 of the header's 3 cells; it looks truncated");
}

TEST(Topo, MissingRowsAreTruncated) {
  const std::string text = "        GPU0    GPU1    GPU2\n"
                           "GPU0     X      PIX     SYS\n"
                           "GPU1    PIX      X      SYS\n";
  EXPECT_EQ(error_of(text), "line 3, column 28: the matrix ends after 2 of its 3 rows (no row "
                            "'GPU2'); it looks truncated");
  EXPECT_EQ(error_of(text + "\nLegend:\n"), "line 5, column 1: the matrix ends after 2 of its 3 "
                                            "rows (no row 'GPU2'); it looks truncated");
}

TEST(Topo, AnAsymmetricMatrixIsAnError) {
  const std::string text = "        GPU0    GPU1\n"
                           "GPU0     X      PIX\n"
                           "GPU1    PXB      X\n";
  EXPECT_EQ(error_of(text), "line 3, column 9: GPU1 to GPU0 is 'PXB' but GPU0 to GPU1 on line 2 "
                            "is 'PIX'; the matrix is not symmetric");
}

TEST(Topo, TheDiagonalMustBeX) {
  EXPECT_EQ(error_of("  GPU0  GPU1\nGPU0  PIX  PIX\nGPU1  PIX  X\n"),
            "line 2, column 7: GPU0 to itself is 'PIX'; expected 'X'");
  EXPECT_EQ(error_of("  GPU0  GPU1\nGPU0  X  X\nGPU1  X  X\n"),
            "line 2, column 10: GPU0 to GPU1 is 'X', which only the diagonal may be");
}

TEST(Topo, RowsOutOfOrderAreAnError) {
  EXPECT_EQ(error_of("  GPU0  GPU1\nGPU1  X  PIX\nGPU0  PIX  X\n"),
            "line 2, column 1: expected the row of 'GPU0', found 'GPU1'");
}

TEST(Topo, TextAfterTheLastColumnIsAnError) {
  EXPECT_EQ(error_of("  GPU0  CPU Affinity\nGPU0  X  0-7  extra\n"),
            "line 2, column 15: 'extra' after the last column of the header");
}

TEST(Topo, ControlBytesAreShownEscaped) {
  EXPECT_EQ(error_of("  GPU0  GPU1\nGPU0  X  P\x01X\nGPU1  PIX  X\n"),
            "line 2, column 10: unknown path 'P\\x01X'; known: X, NV<n>, PIX, PXB, PHB, NODE, SYS");
}

TEST(Topo, TextWithoutAMatrixIsAnError) {
  EXPECT_NE(error_of("hello\nworld\n").find("no GPU topology matrix"), std::string::npos);
  EXPECT_NE(error_of("").find("no GPU topology matrix"), std::string::npos);
}

TEST(Topo, ALegendNamingAnUnknownNicIsAnError) {
  EXPECT_EQ(error_of(two_gpus + "\nNIC Legend:\n\n  NIC0: mlx5_0\n"),
            "line 7, column 3: the NIC Legend names 'NIC0', which is not a column of the matrix");
}

const std::string rocm_link_types = "=========== Link Type between two GPUs ===========\n"
                                    "       GPU0         GPU1\n"
                                    "GPU0   0            XGMI\n"
                                    "GPU1   XGMI         0\n";

TEST(Topo, ReadsAMinimalRocmSmiTable) {
  const TopoMatrix matrix = parse_topo(rocm_link_types);
  EXPECT_EQ(matrix.source, TopoSource::rocm_smi);
  EXPECT_EQ(matrix.path(0, 1).kind, PathKind::xgmi);
  EXPECT_TRUE(matrix.weights.empty());
  EXPECT_EQ(describe_topology(matrix).numa_nodes, std::nullopt);
}

TEST(Topo, RocmSmiErrorsNameLineAndColumn) {
  std::string unknown = rocm_link_types;
  unknown.replace(unknown.find("XGMI         0"), 4, "XGMX");
  EXPECT_EQ(error_of(unknown), "line 4, column 8: unknown link type 'XGMX'; known: XGMI, PCIE (0 "
                               "or X on the diagonal)");
  const std::string truncated = rocm_link_types.substr(0, rocm_link_types.find("GPU1   XGMI"));
  EXPECT_EQ(error_of(truncated), "line 3, column 25: the table ends after 1 of its 2 rows (no row "
                                 "'GPU1'); it looks truncated");
  EXPECT_EQ(error_of("=== Weight between two GPUs ===\n  GPU0\nGPU0  0\n"),
            "rocm-smi output without a 'Link Type between two GPUs' table; give the whole output "
            "of `rocm-smi --showtopo`");
}

TEST(Topo, AGpuNamedBesideTheMatrixIsFound) {
  // vLLM's collect_env prints "GPU 0: NVIDIA A30" before the matrix; nvidia-smi names an
  // SXM A100 "NVIDIA A100-SXM4-40GB", which the catalog knows by its alias.
  const auto a30 = gpu_mentioned("GPU models and configuration:\nGPU 0: NVIDIA A30\n");
  ASSERT_TRUE(a30.has_value());
  EXPECT_EQ(a30->line, 2U);
  EXPECT_EQ(a30->product, "NVIDIA A30");
  EXPECT_EQ(a30->candidates, std::vector<std::string>{"a30"});
  const auto a100 = gpu_mentioned("GPU 0: NVIDIA A100-SXM4-40GB (UUID: GPU-1)\n");
  ASSERT_TRUE(a100.has_value());
  EXPECT_EQ(a100->candidates, (std::vector<std::string>{"a100-sxm4-40gb-(uuid:", "a100-sxm4-40gb",
                                                        "a100-sxm4", "a100"}));
  const auto mi = gpu_mentioned("Card series: AMD Instinct MI300X OAM\n");
  ASSERT_TRUE(mi.has_value());
  EXPECT_EQ(mi->candidates.front(), "mi300x-oam");
  EXPECT_FALSE(gpu_mentioned("NVIDIA-SMI 550.54.15   Driver Version: 550.54.15\n").has_value());
}

} // namespace
} // namespace icx::unit_topo
