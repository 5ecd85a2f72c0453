# What `cmake --install` puts beside the binary (the man page, shell completions) and how
# CPack turns an install into a Debian package.
include(GNUInstallDirs)

# The man page is written from the built icx's --help output, so it cannot drift from it.
set(icx_man_page "${PROJECT_BINARY_DIR}/icx.1")
add_custom_command(
  OUTPUT "${icx_man_page}"
  COMMAND "${CMAKE_COMMAND}" "-DICX=$<TARGET_FILE:icx>" "-DOUTPUT=${icx_man_page}"
          -P "${PROJECT_SOURCE_DIR}/cmake/ManPage.cmake"
  DEPENDS icx "${PROJECT_SOURCE_DIR}/cmake/ManPage.cmake"
  COMMENT "Writing the icx(1) man page from icx --help"
  VERBATIM)
add_custom_target(icx_man_page ALL DEPENDS "${icx_man_page}")

# Installed compressed, as Debian policy asks of man pages (gzip -9n: best compression, no
# name or time stamp in the header, so the same page gives the same bytes).
find_program(ICX_GZIP gzip REQUIRED)
set(icx_man_page_gz "${icx_man_page}.gz")
add_custom_command(
  OUTPUT "${icx_man_page_gz}"
  COMMAND "${ICX_GZIP}" -9nkf "${icx_man_page}"
  DEPENDS "${icx_man_page}"
  COMMENT "Compressing the icx(1) man page"
  VERBATIM)
add_custom_target(icx_man_page_gz ALL DEPENDS "${icx_man_page_gz}")

install(FILES "${icx_man_page_gz}" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
install(FILES "${PROJECT_SOURCE_DIR}/src/cli/completions/icx.bash"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/bash-completion/completions" RENAME icx)
# zsh reads share/zsh/vendor-completions under /usr on Debian (where the package installs)
# and share/zsh/site-functions elsewhere (/usr/local): one copy, in the folder the prefix
# given at install time calls for.
install(CODE "
  if(CMAKE_INSTALL_PREFIX STREQUAL \"/usr\")
    set(icx_zsh_dir vendor-completions)
  else()
    set(icx_zsh_dir site-functions)
  endif()
  file(INSTALL \"${PROJECT_SOURCE_DIR}/src/cli/completions/_icx\"
       DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DATADIR}/zsh/\${icx_zsh_dir}\")
")
# The machine-readable copyright file Debian packages carry in their documentation folder.
install(FILES "${PROJECT_SOURCE_DIR}/cmake/debian/copyright" DESTINATION "${CMAKE_INSTALL_DOCDIR}")

set(CPACK_PACKAGE_NAME icx)
set(CPACK_PACKAGE_VENDOR "The icx developers")
set(CPACK_PACKAGE_CONTACT "The icx developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "The icx developers")
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
# --plot runs gnuplot when it is installed; everything else works without it.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "gnuplot-nox")
# The summary above is the synopsis line; this is the extended description under it.
string(CONCAT CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "icx answers what the wire between GPUs costs when a large language model is split\n"
    "over them (tensor, expert, pipeline parallelism), how long loading or offloading\n"
    "weights takes over the host link, and whether a layout is a good idea. Every figure\n"
    "is a formula over a built-in catalog of published hardware and model figures.")
# Shared-library dependencies (libfmt, libstdc++, libc) from dpkg-shlibdeps when it is there;
# otherwise the ones a Debian 12 build links against, as ldd shows them.
find_program(ICX_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(ICX_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6, libgcc-s1, libstdc++6, libfmt9")
endif()
include(CPack)
