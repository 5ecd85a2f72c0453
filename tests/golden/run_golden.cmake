# Runs one golden case: the real icx binary with the case's arguments, comparing stdout,
# stderr and exit status with the expected files.
#
#   cmake -DICX=<binary> -DCASE_DIR=<dir> -DWORK_DIR=<dir> -DCASE=<name> -DSCRATCH=<dir>
#         [-DUPDATE=ON] -P run_golden.cmake
#
# The case files are in CASE_DIR; icx runs in WORK_DIR, where the inputs its arguments name
# are.
#
# <name>.cmd holds "args: <arguments>" and "exit: <status>" lines, and optionally
# "as-nobody: yes" (run without root's file access, for the unreadable-file case) and
# "setup-unreadable: <file>" (create <file> in SCRATCH with no read permission), and
# "env: NAME=VALUE ..." (variables for icx, set or unset with --unset=NAME, through
# 'cmake -E env'; they apply on top of the fixed environment below).
# <name>.stdout and <name>.stderr hold the expected output; a missing file means empty.
# With UPDATE=ON the output files are rewritten (review the diff!); the exit status in the
# .cmd file is always written by hand.
# "<scratch>" in arguments and expected output stands for the scratch directory.
cmake_minimum_required(VERSION 3.25)
file(STRINGS "${CASE_DIR}/${CASE}.cmd" lines)
set(args_line "")
set(expected_exit "")
set(as_nobody OFF)
set(unreadable "")
set(env_line "")
foreach(line IN LISTS lines)
  if(line MATCHES "^args: (.*)$")
    set(args_line "${CMAKE_MATCH_1}")
  elseif(line MATCHES "^exit: ([0-9]+)$")
    set(expected_exit "${CMAKE_MATCH_1}")
  elseif(line MATCHES "^as-nobody: yes$")
    set(as_nobody ON)
  elseif(line MATCHES "^setup-unreadable: (.+)$")
    set(unreadable "${CMAKE_MATCH_1}")
  elseif(line MATCHES "^env: (.+)$")
    set(env_line "${CMAKE_MATCH_1}")
  endif()
endforeach()
if(expected_exit STREQUAL "")
  message(FATAL_ERROR "${CASE}.cmd: missing 'exit: N' line")
endif()

file(MAKE_DIRECTORY "${SCRATCH}")
string(REPLACE "<scratch>" "${SCRATCH}" args_line "${args_line}")
separate_arguments(args UNIX_COMMAND "${args_line}")

set(prefix "")
if(env_line)
  separate_arguments(env_args UNIX_COMMAND "${env_line}")
  set(prefix "${CMAKE_COMMAND}" -E env ${env_args})
endif()
if(unreadable)
  file(WRITE "${SCRATCH}/${unreadable}" "{}")
  file(CHMOD "${SCRATCH}/${unreadable}" PERMISSIONS OWNER_WRITE)
endif()
if(as_nobody)
  execute_process(COMMAND id -u OUTPUT_VARIABLE uid OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(uid STREQUAL "0")
    find_program(SETPRIV setpriv)
    if(NOT SETPRIV)
      message("GOLDEN-SKIP: running as root without setpriv; cannot make a file unreadable")
      return()
    endif()
    file(CHMOD "${SCRATCH}" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
         GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
    list(APPEND prefix "${SETPRIV}" --reuid=65534 --regid=65534 --clear-groups)
  endif()
endif()

# Output must not depend on the machine: a UTF-8 locale (Unicode bars), no NO_COLOR, no
# COLUMNS (no width limit), stdout is a pipe (so no colour unless a case asks with
# --color always),
set(ENV{LC_ALL} "C.UTF-8")
unset(ENV{NO_COLOR})
unset(ENV{COLUMNS})
# and no config file but the one a case names.
unset(ENV{ICX_CONFIG})
set(ENV{XDG_CONFIG_HOME} "${SCRATCH}/no-config-home")
execute_process(
  COMMAND ${prefix} "${ICX}" ${args}
  WORKING_DIRECTORY "${WORK_DIR}"
  OUTPUT_VARIABLE actual_stdout
  ERROR_VARIABLE actual_stderr
  RESULT_VARIABLE actual_exit)
string(REPLACE "${SCRATCH}" "<scratch>" actual_stdout "${actual_stdout}")
string(REPLACE "${SCRATCH}" "<scratch>" actual_stderr "${actual_stderr}")

if(UPDATE)
  foreach(stream stdout stderr)
    if(actual_${stream} STREQUAL "")
      file(REMOVE "${CASE_DIR}/${CASE}.${stream}")
    else()
      file(WRITE "${CASE_DIR}/${CASE}.${stream}" "${actual_${stream}}")
    endif()
  endforeach()
  if(NOT actual_exit STREQUAL expected_exit)
    message(FATAL_ERROR "golden case ${CASE}: exit status ${actual_exit}, expected ${expected_exit}")
  endif()
  return()
endif()

set(failures "")
foreach(stream stdout stderr)
  set(expected "")
  if(EXISTS "${CASE_DIR}/${CASE}.${stream}")
    file(READ "${CASE_DIR}/${CASE}.${stream}" expected)
  endif()
  if(NOT actual_${stream} STREQUAL expected)
    file(WRITE "${SCRATCH}/${CASE}.${stream}.actual" "${actual_${stream}}")
    file(WRITE "${SCRATCH}/${CASE}.${stream}.expected" "${expected}")
    execute_process(COMMAND diff -u "${SCRATCH}/${CASE}.${stream}.expected"
                            "${SCRATCH}/${CASE}.${stream}.actual" OUTPUT_VARIABLE diff)
    string(APPEND failures "${stream} differs:\n${diff}\n")
  endif()
endforeach()
if(NOT actual_exit STREQUAL expected_exit)
  string(APPEND failures "exit status ${actual_exit}, expected ${expected_exit}\n")
endif()
if(failures)
  message(FATAL_ERROR "golden case ${CASE} (icx ${args_line}):\n${failures}")
endif()
