// The request lengths of a published ShareGPT benchmark run, which `--lengths sharegpt` draws
// from (data/measurements/sharegpt_lengths.csv; its README names the run).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace icx {

/// One request's prompt and output lengths as fractions of the sample's mean of each.
struct LengthPair {
  double input = 1;
  double output = 1;
};

/// The pairs of a `input,output` CSV of token counts, each divided by its column's mean.
/// Throws InputError naming `origin`, the line and the column for a malformed file.
std::vector<LengthPair> parse_length_sample(std::string_view text, const std::string& origin);

/// The shipped ShareGPT sample, read once.
std::span<const LengthPair> sharegpt_sample();

} // namespace icx
