# cmake -DMIGSIM=<binary> -DHELP2MAN=<help2man> -DVERSION=<version> -DSOURCE_DIR=<checkout>
#       -DOUTPUT_DIR=<dir> [-DGZIP=<gzip>] -P this file
#
# Writes the man pages, from the binary's --help texts through help2man, into OUTPUT_DIR:
# migsim.1 (the subcommands `migsim --help` lists, with cmake/migsim.h2m's sections) and
# migsim-<subcommand>.1 for each of them; gzipped (gzip -9n) when GZIP is given.
file(REMOVE_RECURSE ${OUTPUT_DIR})
file(MAKE_DIRECTORY ${OUTPUT_DIR})
set(work ${OUTPUT_DIR}.work)
file(REMOVE_RECURSE ${work})
file(MAKE_DIRECTORY ${work})

# The subcommands: the lines "  <name>  <description>" of the "Subcommands:" section.
execute_process(COMMAND ${MIGSIM} --help OUTPUT_VARIABLE help RESULT_VARIABLE failed)
if(failed OR NOT help MATCHES "\nSubcommands:\n")
  message(FATAL_ERROR "'${MIGSIM} --help' failed or lists no subcommands")
endif()
string(REGEX REPLACE ".*\nSubcommands:\n" "" section "${help}")
string(REGEX REPLACE "\n\n.*" "" section "${section}")
string(REPLACE "\n" ";" lines "${section}")
set(subcommands "")
foreach(line IN LISTS lines)
  if(line MATCHES "^  +([a-z][a-z0-9-]*) +(.+)$")
    list(APPEND subcommands ${CMAKE_MATCH_1})
    set(summary_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
  endif()
endforeach()

# The examples of a --help text are one command per line: help2man fills them into one
# paragraph, so the section of the examples is set unfilled (.nf ... .fi).
function(keep_example_lines page)
  file(READ ${page} text)
  string(FIND "${text}" "\n.SH EXAMPLE" start)  # "Examples:"
  if(start EQUAL -1)
    string(FIND "${text}" "\n.SS \"Example" start)  # "Example:", under OPTIONS
  endif()
  if(start EQUAL -1)
    return()
  endif()
  math(EXPR start "${start} + 1")
  string(SUBSTRING "${text}" 0 ${start} before)
  string(SUBSTRING "${text}" ${start} -1 rest)
  string(FIND "${rest}" "\n.S" end)
  if(end EQUAL -1)
    string(LENGTH "${rest}" end)
  else()
    math(EXPR end "${end} + 1")
  endif()
  string(SUBSTRING "${rest}" 0 ${end} examples)
  string(SUBSTRING "${rest}" ${end} -1 after)
  string(REPLACE "\n.IP\n" "\n.IP\n.nf\n" examples "${examples}")
  file(WRITE ${page} "${before}${examples}.fi\n${after}")
endfunction()

# help2man NAME [PROGRAM ARGS...]: writes NAME.1 from `PROGRAM ARGS... --help`; the version
# comes from here, as `migsim run --version` is not an option.
function(page name summary include)
  set(program ${MIGSIM})
  if(ARGN)
    # help2man runs one executable: a two-line wrapper for `migsim <subcommand>`.
    set(program ${work}/${name})
    file(WRITE ${program} "#!/bin/sh\nexec '${MIGSIM}' ${ARGN} \"$@\"\n")
    file(CHMOD ${program} PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
  endif()
  execute_process(COMMAND ${HELP2MAN} --no-info --no-discard-stderr
                          --version-string=${VERSION} --name=${summary}
                          --include=${include} --output=${OUTPUT_DIR}/${name}.1 ${program}
                  RESULT_VARIABLE failed)
  if(failed)
    message(FATAL_ERROR "help2man failed on ${name}")
  endif()
  keep_example_lines(${OUTPUT_DIR}/${name}.1)
  if(GZIP)
    execute_process(COMMAND ${GZIP} -9nf ${OUTPUT_DIR}/${name}.1 RESULT_VARIABLE failed)
    if(failed)
      message(FATAL_ERROR "gzip failed on ${name}.1")
    endif()
  endif()
endfunction()

set(readme "the README: /usr/share/doc/migsim/README.md (README.md in the sources).\n")
# The main page: cmake/migsim.h2m's sections, and every subcommand's page under SEE ALSO.
set(see_also "")
foreach(sub IN LISTS subcommands)
  string(APPEND see_also ".BR migsim\\-${sub} (1),\n")
endforeach()
file(READ ${SOURCE_DIR}/cmake/migsim.h2m main_include)
file(WRITE ${work}/migsim.h2m "${main_include}\n[SEE ALSO]\n${see_also}${readme}")
page(migsim "a discrete-event simulator of Kubernetes GPU clusters with MIG"
     ${work}/migsim.h2m)

file(WRITE ${work}/sub.h2m "[SEE ALSO]\n.BR migsim (1),\n${readme}")
foreach(sub IN LISTS subcommands)
  page(migsim-${sub} "${summary_${sub}}" ${work}/sub.h2m ${sub})
endforeach()
file(REMOVE_RECURSE ${work})
