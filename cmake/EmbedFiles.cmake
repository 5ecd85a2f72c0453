# icx_embed_files(OUTPUT <file.cpp> FILES <path>... [FUNCTION <name>] [INCLUDE <header>])
# Generates a C++ source defining icx::detail::<name>() (default embedded_catalog_files),
# declared in <header> (default base/embedded_files.hpp): each input file's bytes as an array,
# so shipped data needs no file at run time.
function(icx_embed_files)
  cmake_parse_arguments(ARG "" "OUTPUT;FUNCTION;INCLUDE" "FILES" ${ARGN})
  if(NOT ARG_FUNCTION)
    set(ARG_FUNCTION embedded_catalog_files)
  endif()
  if(NOT ARG_INCLUDE)
    set(ARG_INCLUDE base/embedded_files.hpp)
  endif()
  set(deps "")
  foreach(file IN LISTS ARG_FILES)
    list(APPEND deps "${file}")
  endforeach()
  add_custom_command(
    OUTPUT "${ARG_OUTPUT}"
    COMMAND ${CMAKE_COMMAND} "-DOUTPUT=${ARG_OUTPUT}" "-DFILES=${ARG_FILES}"
            "-DFUNCTION=${ARG_FUNCTION}" "-DINCLUDE=${ARG_INCLUDE}"
            -P "${PROJECT_SOURCE_DIR}/cmake/EmbedFilesScript.cmake"
    DEPENDS ${deps} "${PROJECT_SOURCE_DIR}/cmake/EmbedFilesScript.cmake"
    COMMENT "Embedding data files (${ARG_FUNCTION})"
    VERBATIM)
endfunction()
