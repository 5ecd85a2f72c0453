// How a latency target is named: the latency alone for a mean, with its percentile otherwise.
#pragma once

#include <string>
#include <string_view>

#include "icx/serving/simulate.hpp"

namespace icx {

/// "TTFT", or "TTFT p99" for a percentile target.
std::string target_label(std::string_view latency, Statistic statistic);

} // namespace icx
