# Run by cpack (CPACK_PROJECT_CONFIG_FILE): sets each package's Depends to the Debian packages
# that hold the shared libraries its binary needs directly. Libraries of the LibTorch bundle
# (KILN_DEPENDS_BUNDLE and the NVIDIA wheels beside it) ship inside the kiln package, and their
# own system dependencies (the C and C++ runtimes) are the binaries' too.
#   KILN_DEPENDS_BINARIES  component=binary pairs

if(NOT CPACK_GENERATOR STREQUAL "DEB")
    return()
endif()
get_filename_component(bundle_root "${KILN_DEPENDS_BUNDLE}/../.." ABSOLUTE)

function(kiln_debian_packages binary out)
    execute_process(COMMAND readelf -d "${binary}" OUTPUT_VARIABLE dynamic COMMAND_ERROR_IS_FATAL ANY)
    string(REGEX MATCHALL "Shared library: \\[[^]]+\\]" needed "${dynamic}")
    execute_process(COMMAND ldd "${binary}" OUTPUT_VARIABLE resolved COMMAND_ERROR_IS_FATAL ANY)
    set(paths "")
    foreach(entry ${needed})
        string(REGEX REPLACE "Shared library: \\[(.+)\\]" "\\1" soname "${entry}")
        string(REGEX REPLACE "[.+]" "\\\\\\0" soname_pattern "${soname}")
        if(NOT resolved MATCHES "${soname_pattern} => ([^ ]+)")
            if(soname MATCHES "^ld-linux")
                continue()
            endif()
            message(FATAL_ERROR "${binary} needs ${soname}, which ldd does not find")
        endif()
        file(REAL_PATH "${CMAKE_MATCH_1}" path)
        string(FIND "${path}" "${bundle_root}/" in_bundle)
        if(NOT in_bundle EQUAL 0)
            list(APPEND paths "${path}")
        endif()
    endforeach()
    set(packages "")
    foreach(path ${paths})
        # Debian 12 merged /lib into /usr/lib; dpkg knows each file by the path its package uses.
        string(REGEX REPLACE "^/usr/lib/" "/lib/" unmerged "${path}")
        execute_process(COMMAND dpkg-query -S "${path}" OUTPUT_VARIABLE owner RESULT_VARIABLE rc
            ERROR_QUIET)
        if(NOT rc EQUAL 0)
            execute_process(COMMAND dpkg-query -S "${unmerged}" OUTPUT_VARIABLE owner
                RESULT_VARIABLE rc ERROR_QUIET)
        endif()
        if(NOT rc EQUAL 0)
            message(FATAL_ERROR "No Debian package holds ${path}, which ${binary} needs: install "
                "it from Debian's archive, or bundle it")
        endif()
        string(REGEX REPLACE ":.*" "" owner "${owner}")
        list(APPEND packages "${owner}")
    endforeach()
    list(REMOVE_DUPLICATES packages)
    list(SORT packages)
    string(REPLACE ";" ", " packages "${packages}")
    set(${out} "${packages}" PARENT_SCOPE)
endfunction()

foreach(pair ${KILN_DEPENDS_BINARIES})
    string(REGEX REPLACE "=.*" "" component "${pair}")
    string(REGEX REPLACE "^[^=]*=" "" binary "${pair}")
    string(TOUPPER "${component}" component)
    kiln_debian_packages("${binary}" depends)
    set(CPACK_DEBIAN_${component}_PACKAGE_DEPENDS "${depends}")
endforeach()
