# Precompiled headers. A clean build spent most of its time parsing the same Qt headers in every
# file; CI builds from a clean clone on 2 cores within a time limit. Each library compiles the
# header set once for its own files; the tests share one compiled set (they are many
# executables of one or two files each, all built with the same flags).
# -DTUNEDECK_PRECOMPILED_HEADERS=OFF compiles every file on its own (the fuzz and sanitizer
# builds do). On by default with GCC only, the compiler of the two set-up commands: clang refuses a
# compiled set whose flags differ in any way (the fuzz targets add their own).
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    set(tunedeck_pch_default ON)
else()
    set(tunedeck_pch_default OFF)
endif()
option(TUNEDECK_PRECOMPILED_HEADERS "Compile the common Qt headers once per group of targets"
       ${tunedeck_pch_default})

set(TUNEDECK_PCH_CORE "${PROJECT_SOURCE_DIR}/cmake/precompiled_qt_core.h")
set(TUNEDECK_PCH_WIDGETS "${PROJECT_SOURCE_DIR}/cmake/precompiled_qt_widgets.h")

# tunedeck_precompile_headers(TARGET [WIDGETS])
function(tunedeck_precompile_headers target)
    if(NOT TUNEDECK_PRECOMPILED_HEADERS)
        return()
    endif()
    cmake_parse_arguments(P "WIDGETS" "" "" ${ARGN})
    if(P_WIDGETS)
        target_precompile_headers(${target} PRIVATE "${TUNEDECK_PCH_WIDGETS}")
    else()
        target_precompile_headers(${target} PRIVATE "${TUNEDECK_PCH_CORE}")
    endif()
endfunction()

# tunedeck_reuse_precompiled_headers(TARGET FROM) for targets built with the same flags as FROM.
function(tunedeck_reuse_precompiled_headers target from)
    if(TUNEDECK_PRECOMPILED_HEADERS)
        target_precompile_headers(${target} REUSE_FROM ${from})
    endif()
endfunction()
