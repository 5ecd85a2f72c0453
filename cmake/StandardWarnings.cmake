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
  target_compile_options(icx_standard_warnings INTERFACE
    -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_link_options(icx_standard_warnings INTERFACE -fsanitize=address,undefined)
endif()
if(ICX_BUILD_FUZZERS)
  # Coverage instrumentation for libFuzzer in every first-party object; the fuzz targets
  # themselves link the fuzzer runtime. Every sanitizer report aborts, so a fuzz run with
  # undefined behaviour fails and libFuzzer saves the input.
  target_compile_options(icx_standard_warnings INTERFACE
    -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_link_options(icx_standard_warnings INTERFACE -fsanitize=address,undefined)
endif()
