# Helpers that keep every target built the same way.

function(ingot_warnings target)
  # -Wmismatched-new-delete: GCC 12 reports Asio's coroutine frame allocator
  # (a class-specific operator new/delete pair) as mismatched; a false positive.
  target_compile_options(${target} PRIVATE -Wall -Wextra)
  # The project is held warning-free under GCC 12; the fuzz preset's clang
  # sees GCC-only pragmas, so it builds with warnings that do not fail.
  if(INGOT_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE -Wno-mismatched-new-delete)
  endif()
endfunction()

# SIMD code lives in files named by the instruction set it needs, so that
# only they are compiled for it; the rest of the binary stays baseline for
# its architecture and picks a path at run time (kernels/cpu_features).
# x86-64: *_avx2.cpp, *_avxvnni.cpp, *_avx512.cpp. AArch64: *_neon.cpp (baseline Armv8-A),
# *_dotprod.cpp (SDOT), *_i8mm.cpp (SMMLA).
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  set(INGOT_SIMD_ARCH x86_64)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ARM64)$")
  set(INGOT_SIMD_ARCH aarch64)
else()
  set(INGOT_SIMD_ARCH none)
endif()
set(INGOT_X86_SIMD_FILES "_(avx2|avxvnni|avx512)\\.cpp$")
set(INGOT_ARM_SIMD_FILES "_(neon|dotprod|i8mm)\\.cpp$")
set(INGOT_SIMD_FILES "_(avx2|avxvnni|avx512|neon|dotprod|i8mm)\\.cpp$")

# The SIMD files of other architectures leave the list: their flags and
# intrinsics exist only for their own target.
function(ingot_keep_target_simd_files list_name)
  set(kept)
  foreach(source IN LISTS ${list_name})
    if(source MATCHES "${INGOT_X86_SIMD_FILES}" AND NOT INGOT_SIMD_ARCH STREQUAL "x86_64")
      continue()
    endif()
    if(source MATCHES "${INGOT_ARM_SIMD_FILES}" AND NOT INGOT_SIMD_ARCH STREQUAL "aarch64")
      continue()
    endif()
    list(APPEND kept ${source})
  endforeach()
  set(${list_name} ${kept} PARENT_SCOPE)
endfunction()

# Each path is compiled with exactly what its dispatch checks
# (kernels/dispatch.cpp, isa_available), and no more: a flag beyond the
# check lets the compiler use instructions a CPU that passes it may lack
# (-mavxvnni on the AVX-512 path would allow VEX vpdpbusd, which AVX-512
# CPUs without AVX-VNNI fault on). The isa_objects test disassembles the
# objects to hold this.
function(ingot_simd_flags sources)
  foreach(source IN LISTS sources)
    if(source MATCHES "_avx2\\.cpp$")
      set_source_files_properties(${source} PROPERTIES COMPILE_OPTIONS
        "-mavx2;-mfma;-mf16c;-mbmi2")
    elseif(source MATCHES "_avxvnni\\.cpp$")
      set_source_files_properties(${source} PROPERTIES COMPILE_OPTIONS
        "-mavx2;-mfma;-mf16c;-mbmi2;-mavxvnni")
    elseif(source MATCHES "_avx512\\.cpp$")
      set_source_files_properties(${source} PROPERTIES COMPILE_OPTIONS
        "-mavx512f;-mavx512bw;-mavx512vl;-mavx512dq;-mavx512vnni;-mfma;-mf16c;-mbmi2")
    elseif(source MATCHES "_dotprod\\.cpp$")
      set_source_files_properties(${source} PROPERTIES COMPILE_OPTIONS "-march=armv8.2-a+dotprod")
    elseif(source MATCHES "_i8mm\\.cpp$")
      set_source_files_properties(${source} PROPERTIES COMPILE_OPTIONS
        "-march=armv8.2-a+dotprod+i8mm")
    endif()
  endforeach()
endfunction()

# ingot_layer(name DEPS ...): src/<name>/**.cpp becomes the library ingot_<name>.
function(ingot_layer name)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/${name}/*.cpp)
  if(NOT sources)
    set(sources ${CMAKE_SOURCE_DIR}/cmake/empty.cpp)
  endif()
  ingot_keep_target_simd_files(sources)
  add_library(ingot_${name} STATIC ${sources})
  ingot_simd_flags("${sources}")
  target_include_directories(ingot_${name} PUBLIC ${CMAKE_SOURCE_DIR}/src)
  target_link_libraries(ingot_${name} PUBLIC ${ARG_DEPS})
  ingot_warnings(ingot_${name})
endfunction()

# ingot_test_code(target [OPTIMIZED]): code that drives the product rather
# than being it (test suites, their support, ingot-synth). Test code compiles
# unoptimized in every preset, which halves what it costs to build; the
# code under test keeps the preset's optimization. (At -O1 and above GCC 12
# also reports std::string's operator+ in tests as an out-of-bounds memcpy,
# GCC bug 105329.) A tool that does real work (ingot-synth writes the
# models) keeps the preset's level. With INGOT_UNSANITIZED_TEST_CODE the
# sanitizers leave test code alone too; INGOT_UNDER_SANITIZERS then tells a
# test that the code it calls is sanitized (its own file may not be, so
# __SANITIZE_ADDRESS__ cannot say).
function(ingot_test_code target)
  cmake_parse_arguments(ARG "OPTIMIZED" "" "" ${ARGN})
  if(CMAKE_CXX_FLAGS MATCHES "-fsanitize=[^ ]*address")
    target_compile_definitions(${target} PRIVATE INGOT_UNDER_SANITIZERS=1)
  endif()
  if(NOT ARG_OPTIMIZED)
    target_compile_options(${target} PRIVATE -O0)
  endif()
  if(INGOT_UNSANITIZED_TEST_CODE)
    target_compile_options(${target} PRIVATE -fno-sanitize=all)
  endif()
endfunction()

# ingot_test_suite(name DEPS ... [PRECOMPILE headers...]): tests/<name>/*_test.cpp
# become one binary.
function(ingot_test_suite name)
  cmake_parse_arguments(ARG "" "" "DEPS;PRECOMPILE" ${ARGN})
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${name}/*_test.cpp)
  if(NOT sources)
    return()
  endif()
  add_executable(${name}_tests ${sources})
  ingot_simd_flags("${sources}")
  target_include_directories(${name}_tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(${name}_tests PRIVATE ingot_test_support ${ARG_DEPS} GTest::gtest GTest::gmock GTest::gtest_main)
  ingot_warnings(${name}_tests)
  ingot_test_code(${name}_tests)
  ingot_test_precompile(${name}_tests ${ARG_PRECOMPILE})
  # Test files share most of what they include (gtest, the JSON library,
  # the layer under test): compiled eight to a unit, those are parsed once
  # per unit instead of once per file.
  ingot_unity(${name}_tests)
  add_test(NAME ${name} COMMAND ${name}_tests --gtest_brief=1)
  # A hung suite fails on its own instead of holding CI until its deadline.
  set_tests_properties(${name} PROPERTIES
    ENVIRONMENT "INGOT_SHARED_DIR=${INGOT_SHARED_DIR};INGOT_BUILD_DIR=${CMAKE_BINARY_DIR}"
    TIMEOUT 1200)
endfunction()

# ingot_test_precompile(target [headers...]): gtest and gmock precompiled.
# Suites that add no header of their own share one precompiled header,
# built once by the first of them (util_tests): every suite compiles with
# the same options, and the definitions some add (through the libraries
# they link) do not touch gtest. A suite with headers of its own builds
# its own.
function(ingot_test_precompile target)
  get_property(owner GLOBAL PROPERTY INGOT_TEST_PCH_OWNER)
  if(ARGN OR NOT owner)
    ingot_precompile(${target} <gtest/gtest.h> <gmock/gmock.h> ${ARGN})
    if(NOT ARGN)
      set_property(GLOBAL PROPERTY INGOT_TEST_PCH_OWNER ${target})
    endif()
    return()
  endif()
  target_precompile_headers(${target} REUSE_FROM ${owner})
  ingot_simd_files_parse_headers(${target})
endfunction()

# ingot_precompile(target headers...): the headers become the target's
# precompiled header.
function(ingot_precompile target)
  target_precompile_headers(${target} PRIVATE ${ARGN})
  ingot_simd_files_parse_headers(${target})
endfunction()

# ingot_unity(target): the target compiles as a few large translation units
# instead of one per file. Each of its files pays for the same heavy
# headers (Asio, Beast, CLI11, JSON) and, at full optimization, for the
# code their inline globals emit; batched, that is paid once per batch.
# Names in one file's anonymous namespace are then visible to the others
# in its batch: a file whose helpers would clash keeps them in a namespace
# of its own. GCC reports a header's template instantiated with such a
# name as a linkage problem (-Wsubobject-linkage) unless the name is in the
# main file, which in a batch it no longer is.
function(ingot_unity target)
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE -Wno-subobject-linkage)
  endif()
endfunction()

# Files compiled with SIMD flags (ingot_simd_flags) parse their headers as
# usual: a precompiled header only serves the flags it was built with.
function(ingot_simd_files_parse_headers target)
  get_target_property(sources ${target} SOURCES)
  foreach(source IN LISTS sources)
    if(source MATCHES "${INGOT_SIMD_FILES}")
      set_source_files_properties(${source} TARGET_DIRECTORY ${target}
        PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
    endif()
  endforeach()
endfunction()
