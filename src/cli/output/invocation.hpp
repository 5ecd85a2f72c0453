// How this run of icx came about, for output that must say so (the review page's footer): the
// program's version and build, the command line as typed, and the time it ran.
#pragma once

#include <string>
#include <vector>

namespace icx::cli {

/// "icx 0.1.0 (commit 1a2b3c4d5e6f, catalog 2026-11-30)".
std::string version_text();

/// The words of the command line after the program's name, as typed (set once by run()).
std::vector<std::string>& invocation();

/// "icx report --model 70b -o 'my review.html'": the command line as one shell line, each word
/// quoted when the shell would otherwise split or expand it.
std::string invocation_text();

/// "2026-12-05 01:40 UTC": now, or $SOURCE_DATE_EPOCH when it is set (reproducible builds'
/// convention), so a page made twice from the same inputs can be the same bytes.
std::string run_time_text();

} // namespace icx::cli
