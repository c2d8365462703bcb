# Finds the dependencies and checks them against the minimum versions the code needs:
#   Vulkan headers >= 1.4.311 (VK_KHR_cooperative_matrix, VK_KHR_shader_bfloat16)
#   glslang >= 15.3 with its C interface (GL_KHR_cooperative_matrix, GL_EXT_bfloat16), linked statically
#   SPIRV-Tools (C API for validation), linked statically
#   volk (compiled from its source, so libvulkan is loaded at run time), inih, SQLite, json-c, xxHash
include(CheckFunctionExists)
find_package(Threads REQUIRED)
find_package(PkgConfig REQUIRED)

# --- Vulkan headers ---------------------------------------------------------------------------------------------
find_path(VKAT_VULKAN_INCLUDE_DIR vulkan/vulkan_core.h REQUIRED)
file(STRINGS "${VKAT_VULKAN_INCLUDE_DIR}/vulkan/vulkan_core.h" _vk_hdr REGEX "^#define VK_HEADER_VERSION ")
string(REGEX MATCH "[0-9]+" VKAT_VK_HEADER_VERSION "${_vk_hdr}")
file(STRINGS "${VKAT_VULKAN_INCLUDE_DIR}/vulkan/vulkan_core.h" _vk_cpl REGEX "^#define VK_HEADER_VERSION_COMPLETE ")
string(REGEX MATCH "VK_MAKE_API_VERSION\\(0, ([0-9]+), ([0-9]+)" _ "${_vk_cpl}")
set(VKAT_VK_VERSION "${CMAKE_MATCH_1}.${CMAKE_MATCH_2}.${VKAT_VK_HEADER_VERSION}")
if(VKAT_VK_VERSION VERSION_LESS 1.4.311)
  message(FATAL_ERROR "Vulkan headers ${VKAT_VK_VERSION} in ${VKAT_VULKAN_INCLUDE_DIR} are older than 1.4.311; "
                      "run tools/fetch-deps.sh (or tools/setup.sh)")
endif()
message(STATUS "vkautotune: Vulkan headers ${VKAT_VK_VERSION} (${VKAT_VULKAN_INCLUDE_DIR})")

# --- volk: compiled from its single source file --------------------------------------------------------------
find_path(VKAT_VOLK_DIR volk.c REQUIRED)
add_library(vkat_volk STATIC "${VKAT_VOLK_DIR}/volk.c")
target_include_directories(vkat_volk SYSTEM PUBLIC "${VKAT_VOLK_DIR}" "${VKAT_VULKAN_INCLUDE_DIR}")
target_compile_definitions(vkat_volk PUBLIC VK_NO_PROTOTYPES)
target_link_libraries(vkat_volk PUBLIC ${CMAKE_DL_LIBS})
set_target_properties(vkat_volk PROPERTIES POSITION_INDEPENDENT_CODE ON)

# --- SPIRV-Tools and glslang (static) -------------------------------------------------------------------------
# Found by hand rather than through their CMake packages: those reference the command-line tools, which the
# -dev packages do not ship. Order matters for static linking: glslang's pieces, then the SPIRV-Tools optimizer it
# calls, then SPIRV-Tools itself.
find_path(VKAT_GLSLANG_INCLUDE glslang/Include/glslang_c_interface.h REQUIRED)
file(STRINGS "${VKAT_GLSLANG_INCLUDE}/glslang/build_info.h" _gl_ver REGEX "#define GLSLANG_VERSION_(MAJOR|MINOR|PATCH) ")
string(REGEX REPLACE ".*MAJOR ([0-9]+).*MINOR ([0-9]+).*PATCH ([0-9]+).*" "\\1.\\2.\\3" VKAT_GLSLANG_VERSION "${_gl_ver}")
if(VKAT_GLSLANG_VERSION VERSION_LESS 15.3)
  message(FATAL_ERROR "glslang ${VKAT_GLSLANG_VERSION} is older than 15.3; run tools/fetch-deps.sh (or tools/setup.sh)")
endif()
find_path(VKAT_SPIRV_TOOLS_INCLUDE spirv-tools/libspirv.h REQUIRED)
set(VKAT_GLSLANG_LIBS)
foreach(lib glslang-default-resource-limits glslang SPIRV MachineIndependent GenericCodeGen OSDependent
            SPIRV-Tools-opt SPIRV-Tools)
  string(MAKE_C_IDENTIFIER "VKAT_LIB_${lib}" var)
  if(lib STREQUAL "SPIRV")
    find_library(${var} NAMES libSPIRV.a)   # merged into glslang in newer releases; optional
  else()
    find_library(${var} NAMES lib${lib}.a REQUIRED)
  endif()
  if(${var})
    list(APPEND VKAT_GLSLANG_LIBS "${${var}}")
  endif()
endforeach()
# glibc forwarding shim, only where the C library lacks glibc 2.38's __isoc23_* symbols that the fetched static
# libraries reference (third_party/glibc_compat/isoc23.c says why). It sits inside the link group below, so it is
# searched after the libraries that need it.
set(VKAT_GLIBC_COMPAT)
check_function_exists(__isoc23_strtol VKAT_HAVE_ISOC23_STRTOL)
if(NOT VKAT_HAVE_ISOC23_STRTOL)
  add_library(vkat_glibc_compat STATIC "${CMAKE_CURRENT_SOURCE_DIR}/third_party/glibc_compat/isoc23.c")
  set(VKAT_GLIBC_COMPAT vkat_glibc_compat)
endif()
# SPIRV-Tools' version, for `vkautotune --version`: from the pkg-config file installed next to the library.
get_filename_component(_spvt_libdir "${VKAT_LIB_SPIRV_Tools}" DIRECTORY)
set(VKAT_SPIRV_TOOLS_VERSION "unknown")
if(EXISTS "${_spvt_libdir}/pkgconfig/SPIRV-Tools.pc")
  file(STRINGS "${_spvt_libdir}/pkgconfig/SPIRV-Tools.pc" _spvt_ver REGEX "^Version: ")
  string(REGEX REPLACE "^Version: *" "" VKAT_SPIRV_TOOLS_VERSION "${_spvt_ver}")
endif()
add_library(vkat_glslang INTERFACE)
target_include_directories(vkat_glslang SYSTEM INTERFACE "${VKAT_GLSLANG_INCLUDE}" "${VKAT_SPIRV_TOOLS_INCLUDE}")
# The libraries reference each other in a cycle (glslang <-> MachineIndependent), hence the group.
target_link_libraries(vkat_glslang INTERFACE -Wl,--start-group ${VKAT_GLSLANG_LIBS} ${VKAT_GLIBC_COMPAT} -Wl,--end-group Threads::Threads)
message(STATUS "vkautotune: glslang ${VKAT_GLSLANG_VERSION} (${VKAT_GLSLANG_INCLUDE}), SPIRV-Tools ${VKAT_SPIRV_TOOLS_VERSION}")

# --- inih, SQLite, json-c, xxHash: static where Debian ships a static library, so the binary runs elsewhere --
function(vkat_static_lib var name)
  find_library(${var} NAMES lib${name}.a ${name} REQUIRED)
endfunction()
vkat_static_lib(VKAT_INIH_LIB inih)
vkat_static_lib(VKAT_SQLITE_LIB sqlite3)
vkat_static_lib(VKAT_JSONC_LIB json-c)
find_path(VKAT_INIH_INCLUDE ini.h REQUIRED)
find_path(VKAT_JSONC_INCLUDE json-c/json.h REQUIRED)
find_path(VKAT_XXHASH_INCLUDE xxhash.h REQUIRED)

