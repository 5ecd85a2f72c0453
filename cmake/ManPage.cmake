# Writes the icx(1) man page from the built program's own --help output (the top level and
# every subcommand it lists), so the page cannot drift from the program.
#
#   cmake -DICX=<icx binary> -DOUTPUT=<icx.1> -P ManPage.cmake
cmake_minimum_required(VERSION 3.25)

foreach(variable ICX OUTPUT)
  if(NOT DEFINED ${variable})
    message(FATAL_ERROR "ManPage.cmake: -D${variable}=... is required")
  endif()
endforeach()

# The page is the same whatever the builder's locale and terminal: UTF-8 text, no wrapping.
set(ENV{LC_ALL} "C.UTF-8")
unset(ENV{COLUMNS})

function(run_icx result)
  execute_process(COMMAND "${ICX}" ${ARGN} OUTPUT_VARIABLE text RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "ManPage.cmake: 'icx ${ARGN}' exited with ${status}")
  endif()
  set(${result} "${text}" PARENT_SCOPE)
endfunction()

# Splits text into a list of lines. A CMake list treats ';' and unbalanced '[' ']' specially,
# so they travel as placeholders until escape() puts them back.
function(split_lines text result)
  string(REPLACE "[" "@LB@" text "${text}")
  string(REPLACE "]" "@RB@" text "${text}")
  string(REPLACE ";" "@SC@" text "${text}")
  string(REGEX REPLACE "\n+$" "" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(${result} "${lines}" PARENT_SCOPE)
endfunction()

# One line of text as roff: backslashes and hyphens escaped (options stay copy-and-paste
# ASCII), a leading control character neutralised, common symbols as named glyphs.
function(escape line result)
  string(REPLACE "\\" "\\e" line "${line}")
  string(REPLACE "-" "\\-" line "${line}")
  string(REPLACE "@LB@" "[" line "${line}")
  string(REPLACE "@RB@" "]" line "${line}")
  string(REPLACE "@SC@" ";" line "${line}")
  foreach(pair "→=\\(->" "×=\\(mu" "–=\\(en" "—=\\(em" "−=\\(mi" "≤=\\(<=" "≥=\\(>=" "µ=\\(mc"
               "÷=\\(di" "…=...")
    string(FIND "${pair}" "=" split)
    string(SUBSTRING "${pair}" 0 ${split} symbol)
    math(EXPR split "${split} + 1")
    string(SUBSTRING "${pair}" ${split} -1 glyph)
    string(REPLACE "${symbol}" "${glyph}" line "${line}")
  endforeach()
  if(line MATCHES "^[.']")
    set(line "\\&${line}")
  endif()
  set(${result} "${line}" PARENT_SCOPE)
endfunction()

# Renders one --help text (without its first, descriptive line): "Usage:" as a synopsis,
# option and subcommand tables as tagged paragraphs, example blocks verbatim, the rest as
# paragraphs.
function(render_help text result)
  split_lines("${text}" lines)
  list(REMOVE_AT lines 0)
  set(roff "")
  set(mode "text")
  foreach(line IN LISTS lines)
    if(line STREQUAL "")
      if(mode STREQUAL "verbatim")
        string(APPEND roff ".fi\n.RE\n")
      endif()
      set(mode "text")
    elseif(line MATCHES "^Usage: (.*)$")
      escape("${CMAKE_MATCH_1}" usage)
      string(APPEND roff ".PP\n\\fBUsage:\\fR ${usage}\n")
    elseif(line MATCHES "^(Exit status|Environment):$")
      # The top-level help's own sections of the page.
      string(TOUPPER "${CMAKE_MATCH_1}" heading)
      string(APPEND roff ".SH ${heading}\n")
      set(mode "table")
    elseif(line MATCHES "^([A-Z][A-Za-z ]*):$")
      set(heading "${CMAKE_MATCH_1}")
      string(APPEND roff ".PP\n\\fB${heading}:\\fR\n")
      if(heading MATCHES "^Example")
        set(mode "verbatim")
        string(APPEND roff ".RS\n.nf\n")
      else()
        set(mode "table")
      endif()
    elseif(mode STREQUAL "verbatim")
      string(REGEX REPLACE "^  " "" line "${line}")
      escape("${line}" line)
      string(APPEND roff "${line}\n")
    elseif(mode STREQUAL "table" AND line MATCHES "^  +([^ ]+)(( [^ ]+)*)  +([^ ].*)$")
      # "  -t,--tokens N=4096     Tokens …": names, single-spaced arguments, description.
      escape("${CMAKE_MATCH_1}" name)
      escape("${CMAKE_MATCH_2}" argument)
      escape("${CMAKE_MATCH_4}" description)
      string(APPEND roff ".TP\n\\fB${name}\\fR${argument}\n${description}\n")
    elseif(mode STREQUAL "table" AND line MATCHES "^  +([^ ].*)$")
      escape("${CMAKE_MATCH_1}" name)
      string(APPEND roff ".TP\n\\fB${name}\\fR\n")
    else()
      string(REGEX REPLACE "^ +" "" line "${line}")
      escape("${line}" line)
      string(APPEND roff ".PP\n${line}\n")
    endif()
  endforeach()
  if(mode STREQUAL "verbatim")
    string(APPEND roff ".fi\n.RE\n")
  endif()
  set(${result} "${roff}" PARENT_SCOPE)
endfunction()

run_icx(version --version)
# "icx 0.1.0 (commit …, catalog …)": the page names the version.
string(REGEX REPLACE "^icx ([^ ]+).*$" "\\1" version "${version}")
string(STRIP "${version}" version)
run_icx(top --help)

split_lines("${top}" top_lines)
list(GET top_lines 0 summary)
string(REGEX REPLACE "^icx: " "" summary "${summary}")
escape("${summary}" summary)

# The subcommands, in the order icx lists them.
set(subcommands "")
set(in_list OFF)
foreach(line IN LISTS top_lines)
  if(line STREQUAL "Subcommands:")
    set(in_list ON)
  elseif(line STREQUAL "")
    set(in_list OFF)
  elseif(in_list AND line MATCHES "^  ([a-z][a-z0-9-]*) ")
    list(APPEND subcommands "${CMAKE_MATCH_1}")
  endif()
endforeach()
if(NOT subcommands)
  message(FATAL_ERROR "ManPage.cmake: found no subcommands in 'icx --help'")
endif()

set(page ".\\\" Generated at build time from the output of icx --help; do not edit.\n")
string(APPEND page ".TH ICX 1 \"\" \"icx ${version}\" \"User Commands\"\n")
string(APPEND page ".SH NAME\nicx \\- ${summary}\n")
string(APPEND page ".SH SYNOPSIS\n\\fBicx\\fR \\fIcommand\\fR [\\fIoptions\\fR]\n.br\n")
string(APPEND page "\\fBicx\\fR \\fIcommand\\fR \\fB\\-\\-help\\fR\n.br\n")
string(APPEND page "\\fBicx \\-\\-version\\fR\n")
string(APPEND page ".SH DESCRIPTION\n")
string(APPEND page "\\fBicx\\fR is a calculator for deploying large language models on more "
                   "than one GPU: how many bytes cross the wire between the GPUs, how long that "
                   "takes on each wire, and whether a split of the model on that wire is a good "
                   "idea. Every figure comes from a formula over a catalog of published hardware "
                   "and model figures, each with its source; the catalog is built into the "
                   "program.\n")
render_help("${top}" top_roff)
string(APPEND page "${top_roff}")
string(APPEND page ".SH COMMANDS\n")
foreach(subcommand IN LISTS subcommands)
  run_icx(help "${subcommand}" --help)
  split_lines("${help}" help_lines)
  list(GET help_lines 0 description)
  escape("${description}" description)
  render_help("${help}" help_roff)
  string(APPEND page ".SS \"icx ${subcommand}\"\n${description}\n${help_roff}")
endforeach()
string(APPEND page ".SH SEE ALSO\n")
string(APPEND page "README.md and docs/ in the package's documentation directory: one page "
                   "per command with its JSON contract, docs/models.md (the cost models), "
                   "docs/catalog.md (the catalog format).\n")

file(WRITE "${OUTPUT}.tmp" "${page}")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
