# Compiler settings shared by every Kiln target.

find_program(KILN_CCACHE ccache)
if(KILN_CCACHE)
    # Precompiled headers need this sloppiness or ccache never hits.
    # With paths relative to the source folder, a fresh clone (CI's) hits the cache too.
    set(CMAKE_CXX_COMPILER_LAUNCHER
        ${CMAKE_COMMAND} -E env "CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime"
        "CCACHE_BASEDIR=${CMAKE_SOURCE_DIR}" "CCACHE_NOHASHDIR=1" ${KILN_CCACHE})
endif()

add_library(kiln_build_settings INTERFACE)
target_compile_options(kiln_build_settings INTERFACE -Wall -Wextra)
# GCC 12 in C++20 mode warns about std::string concatenation that cannot overflow (GCC bugs
# 105329 and 105651, fixed in GCC 13).
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(kiln_build_settings INTERFACE -Wno-restrict -Wno-stringop-overflow -Wno-array-bounds)
endif()
# Qt's `slots` macro clashes with LibTorch headers; the whole project uses Q_SLOTS and friends.
target_compile_definitions(kiln_build_settings INTERFACE QT_NO_KEYWORDS)
