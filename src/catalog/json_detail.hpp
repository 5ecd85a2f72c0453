// What the catalog's JSON writers share: a figure in the unit its file gives it in, and the
// keys every entry starts with.
#pragma once

#include "icx/base/json_values.hpp"
#include "icx/catalog/catalog.hpp"

namespace icx::detail {

/// `value` (base units) in units of `unit`, as the catalog file writes it.
Json in_unit(double value, double unit);

/// id, name and aliases: the keys every entry starts with.
Json entry_head(const Entry& entry);

/// One engine's measured curves: "gemm" and "moe" by dtype, "attention" and "mla"; with
/// `defaults` (the default engine's, which another engine's missing dtypes and attention take),
/// a curve equal to theirs is left out.
void write_curves(Json& out, const KernelCurves& curves, const KernelCurves* defaults);

} // namespace icx::detail
