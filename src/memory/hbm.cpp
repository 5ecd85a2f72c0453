#include "icx/memory/hbm.hpp"

#include <fmt/format.h>

#include "icx/base/error.hpp"

namespace icx {

Bytes usable_hbm(const Gpu& gpu, int gpus, double reserve) {
  if (gpus < 1) {
    throw InputError("usable HBM needs at least one GPU");
  }
  if (!(reserve >= 0 && reserve < 1)) {
    throw InputError(fmt::format("HBM reserve {} is not a fraction from 0 to below 1", reserve));
  }
  // Every GPU's memory less the reserved fraction.
  return gpu.memory() * (static_cast<double>(gpus) * (1.0 - reserve));
}

double achieved_hbm_fraction(const Gpu& gpu, std::optional<double> given) {
  return given.value_or(gpu.achievable_hbm_fraction.value_or(1.0));
}

double achieved_hbm_fraction(const Gpu& gpu, std::optional<double> given, const GpuTuning* tuning) {
  return achieved_hbm_fraction(gpu, given               ? given
                                    : tuning != nullptr ? tuning->hbm_fraction
                                                        : std::nullopt);
}

Seconds hbm_read_time(const Gpu& gpu, int gpus, Bytes bytes, double fraction) {
  return bytes / (gpu.hbm_bandwidth * (static_cast<double>(gpus) * fraction));
}

} // namespace icx
