# Where `cmake --install` puts everything (FHS places under CMAKE_INSTALL_PREFIX), and the Debian
# package CPack makes of it (cpack -G DEB in the build folder; tests/install installs and runs it).
include(GNUInstallDirs)

# The programs.
install(TARGETS simjoin RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
set(simjoin_programs simjoin)
if(TARGET simjoin-studio)
  install(TARGETS simjoin-studio simjoin-sweep RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
  list(APPEND simjoin_programs simjoin-studio simjoin-sweep)
  # The desktop entry, its icon (SVG and the PNG sizes of the hicolor theme) and AppStream metadata.
  set(app_id org.simjoin.SimjoinStudio)
  configure_file(${PROJECT_SOURCE_DIR}/resources/linux/${app_id}.metainfo.xml
                 ${CMAKE_BINARY_DIR}/resources/${app_id}.metainfo.xml @ONLY)
  install(FILES ${PROJECT_SOURCE_DIR}/resources/linux/${app_id}.desktop
          DESTINATION ${CMAKE_INSTALL_DATADIR}/applications COMPONENT runtime)
  install(FILES ${CMAKE_BINARY_DIR}/resources/${app_id}.metainfo.xml
          DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo COMPONENT runtime)
  install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/${app_id}.svg
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps COMPONENT runtime)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/icons/hicolor/
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor COMPONENT runtime)
endif()

# The Python package, where Debian's python3 finds it: lib/python3/dist-packages under a prefix /usr
# (the .deb's too), lib/python3.X/dist-packages under any other (/usr/local). The prefix is known only
# when installing (cpack installs into a folder of its own), so the choice is made then.
if(TARGET simjoin_python)
  execute_process(COMMAND ${SIMJOIN_PYTHON} -c "import sys; print(f'{sys.version_info[0]}.{sys.version_info[1]}')"
                  OUTPUT_VARIABLE simjoin_python_version OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(SIMJOIN_PYTHON_INSTALL_DIR "" CACHE STRING "Where the Python package goes, under the prefix (empty: as above)")
  set(python_dir_choice "
    set(simjoin_python_dir \"${SIMJOIN_PYTHON_INSTALL_DIR}\")
    if(NOT simjoin_python_dir AND CMAKE_INSTALL_PREFIX MATCHES \"/usr$\")
      set(simjoin_python_dir lib/python3/dist-packages)
    elseif(NOT simjoin_python_dir)
      set(simjoin_python_dir lib/python${simjoin_python_version}/dist-packages)
    endif()")
  install(CODE "${python_dir_choice}" COMPONENT python)
  # \${simjoin_python_dir}: read when installing, as set just above.
  install(TARGETS simjoin_python LIBRARY DESTINATION \${simjoin_python_dir}/simjoin COMPONENT python)
  install(DIRECTORY ${CMAKE_BINARY_DIR}/python/simjoin/ DESTINATION \${simjoin_python_dir}/simjoin
          COMPONENT python FILES_MATCHING PATTERN "*.py" PATTERN "*.pyi" PATTERN "py.typed" PATTERN "__pycache__" EXCLUDE)
endif()

# Man pages and bash completions, generated from each program's --help (cmake/help_pages.py).
foreach(program IN LISTS simjoin_programs)
  set(page ${CMAKE_BINARY_DIR}/man/${program}.1)
  set(completion ${CMAKE_BINARY_DIR}/completions/${program})
  add_custom_command(OUTPUT ${page} ${completion}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man ${CMAKE_BINARY_DIR}/completions
    COMMAND ${SIMJOIN_PYTHON} ${PROJECT_SOURCE_DIR}/cmake/help_pages.py $<TARGET_FILE:${program}> ${program}
            ${PROJECT_VERSION} ${page} ${completion}
    COMMAND gzip -9nf ${page}
    DEPENDS ${simjoin_programs} ${PROJECT_SOURCE_DIR}/cmake/help_pages.py
    COMMENT "Man page and bash completion of ${program} from its --help" VERBATIM)
  list(APPEND simjoin_help_pages ${page} ${completion})
  install(FILES ${page}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT runtime)
  install(FILES ${completion} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions COMPONENT runtime)
endforeach()
add_custom_target(simjoin_help_pages ALL DEPENDS ${simjoin_help_pages})

# Documentation, with the copyright and changelog Debian asks of every package, in the package's name.
set(simjoin_docdir ${CMAKE_INSTALL_DATADIR}/doc/simjoin)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/docs/python.md
              ${PROJECT_SOURCE_DIR}/docs/distributed.md ${PROJECT_SOURCE_DIR}/docs/file-formats.md
              ${PROJECT_SOURCE_DIR}/resources/linux/copyright
        DESTINATION ${simjoin_docdir} COMPONENT runtime)
set(changelog ${CMAKE_BINARY_DIR}/resources/changelog.Debian.gz)
add_custom_command(OUTPUT ${changelog}
  COMMAND gzip -9nc ${PROJECT_SOURCE_DIR}/resources/linux/changelog > ${changelog}
  DEPENDS ${PROJECT_SOURCE_DIR}/resources/linux/changelog VERBATIM)
add_custom_target(simjoin_changelog ALL DEPENDS ${changelog})
install(FILES ${changelog} DESTINATION ${simjoin_docdir} COMPONENT runtime)

# find_package(Simjoin) -> Simjoin::core: the library and its headers (include "core/...").
include(CMakePackageConfigHelpers)
set_target_properties(simjoin_core PROPERTIES EXPORT_NAME core)
target_include_directories(simjoin_core INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/simjoin>)
install(TARGETS simjoin_core EXPORT SimjoinTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/core/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/simjoin/core
        COMPONENT development FILES_MATCHING PATTERN "*.hpp" PATTERN "vtkio" EXCLUDE PATTERN "detail" EXCLUDE)
set(config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/Simjoin)
install(EXPORT SimjoinTargets NAMESPACE Simjoin:: DESTINATION ${config_dir} COMPONENT development)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/SimjoinConfig.cmake.in
  ${CMAKE_BINARY_DIR}/cmake/SimjoinConfig.cmake INSTALL_DESTINATION ${config_dir})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/cmake/SimjoinConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/cmake/SimjoinConfig.cmake ${CMAKE_BINARY_DIR}/cmake/SimjoinConfigVersion.cmake
        DESTINATION ${config_dir} COMPONENT development)

# The Debian package: its dependencies are those dpkg-shlibdeps finds for every program and library
# it holds, plus what the Python package imports and Qt's offscreen and X11 platform plugins.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME simjoin)
set(CPACK_PACKAGE_VENDOR "Simjoin Studio")
set(CPACK_PACKAGE_CONTACT "Simjoin Studio maintainers <maintainers@simjoin.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "exact epsilon-similarity join on CPUs and GPUs, with a teaching GUI")
set(CPACK_PACKAGE_DESCRIPTION "Simjoin Studio finds every pair of points within distance eps of
each other (self-join and A-join-B) on CPUs and NVIDIA GPUs, exactly, and shows
how the algorithms do it. This package holds the command line (simjoin), the
Qt 6 application (simjoin-studio), simjoin-sweep, the Python module simjoin
and the library Simjoin::core for CMake projects.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS OFF)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "python3-numpy, python3-scipy")
if(TARGET simjoin_python)
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS
         ", python3 (>= ${simjoin_python_version}~), python3 (<< ${simjoin_python_version}.99)")
endif()
if(TARGET simjoin-studio)
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", qt6-qpa-plugins")
endif()
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3-dask, python3-distributed, python3-psutil")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3-sklearn")
set(CPACK_STRIP_FILES ON)
include(CPack)
