# icx_embed_files(OUTPUT <file.cpp> FILES <name=path>...)
# Generates a C++ source defining icx::detail::embedded_catalog_files(): each input file's
# bytes as an array, so the shipped catalog needs no file at run time.
function(icx_embed_files)
  cmake_parse_arguments(ARG "" "OUTPUT" "FILES" ${ARGN})
  set(deps "")
  foreach(file IN LISTS ARG_FILES)
    list(APPEND deps "${file}")
  endforeach()
  add_custom_command(
    OUTPUT "${ARG_OUTPUT}"
    COMMAND ${CMAKE_COMMAND} "-DOUTPUT=${ARG_OUTPUT}" "-DFILES=${ARG_FILES}"
            -P "${PROJECT_SOURCE_DIR}/cmake/EmbedFilesScript.cmake"
    DEPENDS ${deps} "${PROJECT_SOURCE_DIR}/cmake/EmbedFilesScript.cmake"
    COMMENT "Embedding catalog files"
    VERBATIM)
endfunction()
