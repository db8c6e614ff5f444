# The walls between the libraries, held by the compiler (docs/ARCHITECTURE.md, "Walls"). Every
# #include names a path from the repository's root ("core/join/engine.hpp"), but no target sees that root:
# each gets an include root of its own under build/include/<target>/ holding links to its own
# headers only, so that a header of a library the target does not link is not found. Folders in the
# root are real and each header is linked on its own, so that "core/../ui/x.hpp" finds nothing either.

# simjoin_include_root(<target> <PUBLIC|PRIVATE|INTERFACE> <glob>...): links the headers that match
# the globs (relative to the repository, one folder each: core/io/*.hpp) into <target>'s root and
# adds the root to its include directories with that scope (PUBLIC: also for those who link it).
function(simjoin_include_root target scope)
  set(root ${CMAKE_BINARY_DIR}/include/${target})
  file(REMOVE_RECURSE ${root})  # headers moved or removed since the last configure disappear
  list(TRANSFORM ARGN PREPEND ${PROJECT_SOURCE_DIR}/ OUTPUT_VARIABLE globs)
  file(GLOB headers CONFIGURE_DEPENDS RELATIVE ${PROJECT_SOURCE_DIR} ${globs})
  if(NOT headers)
    message(FATAL_ERROR "simjoin_include_root(${target}): no header matches ${ARGN}")
  endif()
  foreach(header IN LISTS headers)
    get_filename_component(folder ${root}/${header} DIRECTORY)
    file(MAKE_DIRECTORY ${folder})
    file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${header} ${root}/${header} SYMBOLIC)
  endforeach()
  # The build's root only: an installed library's headers are under include/simjoin (cmake/Install.cmake).
  target_include_directories(${target} ${scope} $<BUILD_INTERFACE:${root}>)
endfunction()
