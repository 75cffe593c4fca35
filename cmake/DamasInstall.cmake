# Installation of the probing library (included by the top-level CMakeLists.txt).
#
# What `cmake --install` puts under the prefix:
#   lib/libdamas-probe.so       the probing library: the objects of rules, index, table, limits and
#                               probe (position-independent code) in one shared library that links
#                               zstd and the C++ runtime itself, so a C program (or another
#                               language's FFI) links it alone. The static in-tree libraries
#                               (damas_rules, damas_index, damas_table, damas_limits, damas_probe) are not
#                               installed.
#   include/damas/              the public headers, with -I include/damas: damas_probe.h (C, C89;
#                               also as probe/damas_probe.h) and damas.hpp (C++17, inline code
#                               over the C interface). No internal header is installed: the
#                               library's own C++20 API (probe/probe.hpp and what it includes) is
#                               for code built with the project; .ci/install-example checks that
#                               the installed headers compile alone as C89/C99 and C++17.
#   lib/cmake/damas/            find_package(damas) -> target damas::probe
#   lib/pkgconfig/damas-probe.pc
#   bin/damas                   the command line
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
find_package(zstd CONFIG REQUIRED)

# The five lower libraries are compiled once, as position-independent code, for the static
# in-tree libraries (the command line, the generator, the tests), this shared library and the
# Python module (python/): a second, position-independent copy of them was a tenth of the build.
# -fno-semantic-interposition: calls within them stay direct and inlinable, as in an executable
# (the generator, which calls them, is as fast: docs/performance.md, "Build and CI").
set(damas_probe_libraries damas_rules damas_index damas_table damas_limits damas_probe)
set_target_properties(${damas_probe_libraries} PROPERTIES POSITION_INDEPENDENT_CODE ON)
set(damas_probe_objects)
foreach(lib IN LISTS damas_probe_libraries)
  target_compile_options(${lib} PRIVATE -fno-semantic-interposition)
  list(APPEND damas_probe_objects $<TARGET_OBJECTS:${lib}>)
endforeach()

add_library(damas_probe_shared SHARED ${damas_probe_objects})
set_target_properties(damas_probe_shared PROPERTIES
  OUTPUT_NAME damas-probe
  EXPORT_NAME probe
  VERSION ${PROJECT_VERSION}
  # Before 1.0 a minor release may change the C ABI: the soname carries both numbers.
  SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
target_include_directories(damas_probe_shared PUBLIC
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/damas>)
target_link_libraries(damas_probe_shared PRIVATE zstd::libzstd_shared Threads::Threads
  damas_warnings)
add_library(damas::probe ALIAS damas_probe_shared)

install(TARGETS damas_probe_shared EXPORT damasTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET damas)
  install(TARGETS damas RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

# The public headers: the C header and the C++17 one over it (they include nothing else of ours).
install(FILES ${PROJECT_SOURCE_DIR}/probe/damas_probe.h ${PROJECT_SOURCE_DIR}/probe/damas.hpp
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/damas)
install(FILES ${PROJECT_SOURCE_DIR}/probe/damas_probe.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/damas/probe)

# CMake package.
set(damas_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/damas)
install(EXPORT damasTargets NAMESPACE damas:: DESTINATION ${damas_cmake_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/damasConfig.cmake.in
  ${PROJECT_BINARY_DIR}/damasConfig.cmake INSTALL_DESTINATION ${damas_cmake_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/damasConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/damasConfig.cmake
  ${PROJECT_BINARY_DIR}/damasConfigVersion.cmake DESTINATION ${damas_cmake_dir})

# pkg-config, relocatable: the prefix is found from the .pc file's own folder.
set(damas_pc_dir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH DAMAS_PC_TO_PREFIX /prefix/${damas_pc_dir} /prefix)
configure_file(${PROJECT_SOURCE_DIR}/cmake/damas-probe.pc.in
  ${PROJECT_BINARY_DIR}/damas-probe.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/damas-probe.pc DESTINATION ${damas_pc_dir})
