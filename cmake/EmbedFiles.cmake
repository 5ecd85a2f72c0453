# icx_embed_files(OUTPUT <file.cpp> FILES <path>... [FUNCTION <name>])
# Generates a C++ source defining icx::detail::<name>() (default embedded_catalog_files):
# each input file's bytes as an array, so shipped data needs no file at run time.
function(icx_embed_files)
  cmake_parse_arguments(ARG "" "OUTPUT;FUNCTION" "FILES" ${ARGN})
  if(NOT ARG_FUNCTION)
    set(ARG_FUNCTION embedded_catalog_files)
  endif()
  set(deps "")
  foreach(file IN LISTS ARG_FILES)
    list(APPEND deps "${file}")
  endforeach()
  add_custom_command(
    OUTPUT "${ARG_OUTPUT}"
    COMMAND ${CMAKE_COMMAND} "-DOUTPUT=${ARG_OUTPUT}" "-DFILES=${ARG_FILES}"
            "-DFUNCTION=${ARG_FUNCTION}"
            -P "${PROJECT_SOURCE_DIR}/cmake/EmbedFilesScript.cmake"
    DEPENDS ${deps} "${PROJECT_SOURCE_DIR}/cmake/EmbedFilesScript.cmake"
    COMMENT "Embedding data files (${ARG_FUNCTION})"
    VERBATIM)
endfunction()
