# Installation and packaging: the CLI, the tuning library libvkautotune.a with its one public header
# (include/vkautotune.h, docs/library.md), the runtime library (static + shared) with its header, a CMake package
# (find_package(vkautotune) -> vkautotune::vkautotune, vkautotune::runtime), pkg-config files (vkautotune,
# vkautotune-runtime), the man page, bash completion and the
# example; CPack makes a .deb of the same. Nothing here builds code.
include(CMakePackageConfigHelpers)

install(TARGETS vkautotune RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS vkautotune_runtime_static vkautotune_runtime_shared EXPORT vkautotuneTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        PUBLIC_HEADER DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES "${PROJECT_BINARY_DIR}/libvkautotune.a" DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES include/vkautotune.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT vkautotuneTargets NAMESPACE vkautotune:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/vkautotune)
configure_package_config_file(cmake/vkautotuneConfig.cmake.in "${PROJECT_BINARY_DIR}/vkautotuneConfig.cmake"
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/vkautotune)
write_basic_package_version_file("${PROJECT_BINARY_DIR}/vkautotuneConfigVersion.cmake"
                                 COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/vkautotuneConfig.cmake" "${PROJECT_BINARY_DIR}/vkautotuneConfigVersion.cmake"
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/vkautotune)

# pkg-config: the Vulkan headers' directory only when it is not the system's.
set(VKAT_PC_VULKAN_CFLAGS "")
if(NOT VKAT_VULKAN_INCLUDE_DIR STREQUAL "/usr/include")
  set(VKAT_PC_VULKAN_CFLAGS " -I${VKAT_VULKAN_INCLUDE_DIR}")
endif()
file(RELATIVE_PATH VKAT_PC_PREFIX_REL "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
configure_file(cmake/vkautotune-runtime.pc.in "${PROJECT_BINARY_DIR}/vkautotune-runtime.pc" @ONLY)
configure_file(cmake/vkautotune.pc.in "${PROJECT_BINARY_DIR}/vkautotune.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/vkautotune-runtime.pc" "${PROJECT_BINARY_DIR}/vkautotune.pc"
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

install(FILES docs/vkautotune.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES tools/completion/vkautotune.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME vkautotune)
install(FILES examples/gemm_runtime.c examples/CMakeLists.txt docs/runtime.md examples/library_devices.c
              docs/library.md
        DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/vkautotune/examples)
install(DIRECTORY spaces shaders DESTINATION ${CMAKE_INSTALL_DATADIR}/vkautotune)

set(CPACK_PACKAGE_NAME vkautotune)
set(CPACK_PACKAGE_VENDOR "vkautotune")
set(CPACK_PACKAGE_CONTACT "vkautotune maintainers <vkautotune@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Vulkan compute-shader autotuner and its runtime library")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libvulkan1")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_DIRECTORY "${PROJECT_BINARY_DIR}/packages")
include(CPack)
