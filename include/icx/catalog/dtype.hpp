// An element type of weights, activations or the KV cache, and the peak it computes at.
#pragma once

#include <string>

#include "icx/catalog/link.hpp"

namespace icx {

struct Dtype : Entry {
  /// Bytes per element with any block scales counted (MXFP4: 4.25 bits).
  double bytes_per_element = 0;
  /// The dense peak a block-scaled dtype computes at where the GPU lists it (FP4 for MXFP4);
  /// empty: its own.
  std::string compute_as;
  /// Where the GPU lists no peak for compute_as: the dtype the weights are dequantised to, as
  /// weight-only kernels do (kernel_dtype, icx/serving/compute.hpp).
  std::string weight_only_as;
  /// The dtype whose measured kernel curves price this one's GEMMs on a GPU with none of its
  /// own for it (FP16 by BF16's: the same width, and the same tensor-core rate on every GPU the
  /// curves describe); empty: none (curve_dtype, icx/serving/compute.hpp).
  std::string kernels_as;
  bool operator==(const Dtype&) const = default;
};

} // namespace icx
