#include "icx/serving/length_sample.hpp"

#include <array>

#include "base/csv_rows.hpp"
#include "base/embedded_files.hpp"
#include "icx/base/limits.hpp"

namespace icx {

namespace {

constexpr std::array<const char*, 2> columns{"input", "output"};

} // namespace

std::vector<LengthPair> parse_length_sample(std::string_view text, const std::string& origin) {
  const int most = static_cast<int>(limits::max_tokens);
  std::vector<LengthPair> pairs = detail::read_csv_rows<LengthPair>(
      text, origin, columns, [most](const detail::CsvRow& row, std::size_t /*line*/) {
        return LengthPair{static_cast<double>(row.whole("input", 1, most)),
                          static_cast<double>(row.whole("output", 1, most))};
      });
  LengthPair mean{0, 0};
  for (const LengthPair& p : pairs) {
    mean.input += p.input;
    mean.output += p.output;
  }
  mean.input /= static_cast<double>(pairs.size());
  mean.output /= static_cast<double>(pairs.size());
  for (LengthPair& p : pairs) {
    p.input /= mean.input;
    p.output /= mean.output;
  }
  return pairs;
}

std::span<const LengthPair> sharegpt_sample() {
  static const std::vector<LengthPair> sample = [] {
    const detail::EmbeddedFile& file = detail::embedded_length_files().front();
    return parse_length_sample(file.text, "<shipped>/" + std::string(file.name));
  }();
  return sample;
}

} // namespace icx
