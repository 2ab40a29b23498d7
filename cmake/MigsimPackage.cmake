# Installing migsim and its Debian package (README "Install"):
#   cmake --install build --prefix /usr        # or: sudo dpkg -i build/migsim_<version>_amd64.deb
#   cpack --config build/CPackConfig.cmake -B build   (or: cmake --build build --target package)
# <prefix>/bin/migsim; the Python module in MIGSIM_PYTHON_INSTALL_DIR (sim/python);
# share/migsim/{scenarios,plugin}; share/doc/migsim; share/man/man1 (help2man);
# share/bash-completion/completions/migsim. scripts/test-package installs the package and
# runs it from elsewhere.
include(GNUInstallDirs)

install(TARGETS migsim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The scenarios with the files they name relative to themselves (manifests, traces,
# measurements, the snapshot `migsim import` reads, telemetry). The openb trace data is not
# in the repository: the binary looks for it in <bindir>/../share/migsim/data/openb.
set(MIGSIM_DATADIR ${CMAKE_INSTALL_DATADIR}/migsim)
install(DIRECTORY scenarios/ DESTINATION ${MIGSIM_DATADIR}/scenarios
        PATTERN screenshots EXCLUDE)
# The policy plugin interface and the example plugins, built on their own from a copy.
install(FILES policies/plugin/migsim_policy_plugin.h DESTINATION ${MIGSIM_DATADIR}/plugin)
install(DIRECTORY policies/plugin/example/ DESTINATION ${MIGSIM_DATADIR}/plugin/example
        PATTERN build EXCLUDE PATTERN .gitignore EXCLUDE)
# The READMEs at their paths in the repository, so that their links between each other hold.
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES scenarios/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR}/scenarios)
install(FILES scenarios/screenshots/56-superres-report.png
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/scenarios/screenshots)
install(FILES policies/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR}/policies)
install(FILES sim/python/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR}/sim/python)

# Written by the built binary: the bash completion (`migsim completion bash`) and the man
# pages (help2man). Not in a sanitizer build, which is not installed.
if(NOT MIGSIM_SANITIZE)
  set(completion ${PROJECT_BINARY_DIR}/share/bash-completion/completions/migsim)
  add_custom_command(OUTPUT ${completion}
                     COMMAND ${CMAKE_COMMAND} -DMIGSIM=$<TARGET_FILE:migsim>
                             -DOUTPUT=${completion}
                             -P ${PROJECT_SOURCE_DIR}/cmake/WriteCompletion.cmake
                     DEPENDS migsim ${PROJECT_SOURCE_DIR}/cmake/WriteCompletion.cmake VERBATIM)
  add_custom_target(migsim_completion ALL DEPENDS ${completion})
  install(FILES ${completion} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)

  find_program(MIGSIM_HELP2MAN help2man)
  if(MIGSIM_HELP2MAN)
    find_program(MIGSIM_GZIP gzip)
    set(man_dir ${PROJECT_BINARY_DIR}/share/man/man1)
    set(main_page ${man_dir}/migsim.1)
    if(MIGSIM_GZIP)
      set(main_page ${main_page}.gz)
    endif()
    add_custom_command(OUTPUT ${main_page}
                       COMMAND ${CMAKE_COMMAND} -DMIGSIM=$<TARGET_FILE:migsim>
                               -DHELP2MAN=${MIGSIM_HELP2MAN} -DGZIP=${MIGSIM_GZIP}
                               -DVERSION=${PROJECT_VERSION} -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
                               -DOUTPUT_DIR=${man_dir}
                               -P ${PROJECT_SOURCE_DIR}/cmake/WriteManPages.cmake
                       DEPENDS migsim ${PROJECT_SOURCE_DIR}/cmake/WriteManPages.cmake
                               ${PROJECT_SOURCE_DIR}/cmake/migsim.h2m
                       COMMENT "Writing the man pages (help2man)" VERBATIM)
    add_custom_target(migsim_man ALL DEPENDS ${main_page})
    install(DIRECTORY ${man_dir} DESTINATION ${CMAKE_INSTALL_MANDIR})
  else()
    message(STATUS "migsim man pages: skipped (install help2man, then configure again); "
                   "the package is then built without them")
  endif()
endif()

# The Debian package: migsim_<version>_<arch>.deb in build/.
# A fixed project address (the .invalid domain never resolves, RFC 2606), not whoever
# committed or builds: the same package from any checkout. A distributor sets its own.
set(MIGSIM_PACKAGE_MAINTAINER "migsim developers <migsim@invalid>"
    CACHE STRING "The Debian package's Maintainer field")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME migsim)
set(CPACK_PACKAGE_CONTACT "${MIGSIM_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "discrete-event simulator of Kubernetes GPU clusters with MIG")
set(CPACK_PACKAGE_DESCRIPTION
    "migsim simulates Kubernetes clusters of GPU nodes whose GPUs are whole, MIG-partitioned \
with NVIDIA's profile and placement rules, or time-sliced: pods, Deployments, Jobs, \
workflows and replayed traces scheduled by a pluggable policy, with makespan, queueing \
latency, GPU allocation and energy reported for several variants side by side. Includes \
the command-line tool, the Python module (import migsim), example scenarios, sweeps and \
capacity plans, man pages and bash completion.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# The shared libraries' packages (libyaml-cpp, libstdc++, libc) from dpkg-shlibdeps; Python
# for the module, which is built for one minor version (its file name says which).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
if(TARGET migsim_python)
  execute_process(COMMAND ${MIGSIM_PYTHON} -c "import sys; print(sys.version_info[1])"
                  OUTPUT_VARIABLE minor OUTPUT_STRIP_TRAILING_WHITESPACE)
  math(EXPR next "${minor} + 1")
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "python3 (>= 3.${minor}~), python3 (<< 3.${next})")
endif()
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "bash-completion, python3-pandas")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
