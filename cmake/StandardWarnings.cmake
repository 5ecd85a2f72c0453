# One INTERFACE target carrying the project's warning and sanitizer flags; linked PRIVATE by
# first-party targets only, so third-party headers are never compiled with them.
add_library(icx_standard_warnings INTERFACE)
target_compile_options(icx_standard_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion -Wnon-virtual-dtor
  -Wold-style-cast -Woverloaded-virtual -Wnull-dereference -Wimplicit-fallthrough)
if(ICX_WARNINGS_AS_ERRORS)
  target_compile_options(icx_standard_warnings INTERFACE -Werror)
endif()
if(ICX_SANITIZE)
  # -O1, as AddressSanitizer's documentation advises: the tests run about 2.5 times as fast
  # under the sanitizers as at -O0. No position-independent executable: each run of icx would
  # otherwise relocate the millions of pointers in the sanitizers' per-check data before main,
  # over a third of the time `icx --version` takes.
  # GCC's manual warns that the sanitizers raise false -Wmaybe-uninitialized reports: at -O1
  # it flags std::regex's own headers, so that one warning is off in this build alone.
  # -g1: line tables only, enough for the sanitizers' stack traces, and a lighter compile.
  target_compile_options(icx_standard_warnings INTERFACE
    -O1 -g1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
    $<$<CXX_COMPILER_ID:GNU>:-Wno-maybe-uninitialized>)
  target_link_options(icx_standard_warnings INTERFACE -fsanitize=address,undefined -no-pie)
endif()
if(ICX_BUILD_FUZZERS)
  # Coverage instrumentation for libFuzzer in every first-party object; the fuzz targets
  # themselves link the fuzzer runtime. Every sanitizer report aborts, so a fuzz run with
  # undefined behaviour fails and libFuzzer saves the input.
  target_compile_options(icx_standard_warnings INTERFACE
    -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_link_options(icx_standard_warnings INTERFACE -fsanitize=address,undefined)
endif()
