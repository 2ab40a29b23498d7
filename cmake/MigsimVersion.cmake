# migsim_version_header(<target> <source>): generates sim/cli/build_version.h (the project
# version and the commit, cmake/WriteVersionHeader.cmake) before every build of <target>, for
# <source> alone to include: the other files' flags do not change, and a new commit
# recompiles that one file.
function(migsim_version_header target source)
  set(dir ${PROJECT_BINARY_DIR}/generated)
  set(header ${dir}/sim/cli/build_version.h)
  set(write ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DVERSION=${PROJECT_VERSION}
            -DOUTPUT=${header} -P ${PROJECT_SOURCE_DIR}/cmake/WriteVersionHeader.cmake)
  # At configure time too, so that the header exists for compile_commands.json users.
  execute_process(COMMAND ${write})
  add_custom_target(${target}_version COMMAND ${write} BYPRODUCTS ${header} VERBATIM)
  add_dependencies(${target} ${target}_version)
  target_sources(${target} PRIVATE ${source})
  set_source_files_properties(${source} PROPERTIES INCLUDE_DIRECTORIES ${dir})
endfunction()
