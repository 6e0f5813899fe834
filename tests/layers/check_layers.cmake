# test_layers: the engine's folders are layers, each including only those below it, and gui/ and
# cli/ are above the engine, beside each other: an #include that runs back up fails this test,
# naming the file and the include. The build mirrors it: each engine folder is a library linking
# only the ones below it (engine/CMakeLists.txt). Run as: cmake -DSOURCE_DIR=<repository> -P check_layers.cmake
#
# The engine's layers, bottom first; modules joined by '|' share a layer and include neither
# each other nor anything above. README's Layout section explains the order.
cmake_minimum_required(VERSION 3.25)

set(engine_layers core system distributed onnx models eval data methods config track runtime
    train "embed|predict" deploy)
# gui/: common is below every other area, app above every other.

function(rank_of module out)
    set(rank 0)
    foreach(layer IN LISTS engine_layers)
        string(REPLACE "|" ";" members "${layer}")
        if(module IN_LIST members)
            set(${out} ${rank} PARENT_SCOPE)
            return()
        endif()
        math(EXPR rank "${rank} + 1")
    endforeach()
    set(${out} -1 PARENT_SCOPE)
endfunction()

file(GLOB_RECURSE sources RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/engine/*.h"
     "${SOURCE_DIR}/engine/*.cpp" "${SOURCE_DIR}/gui/*.h" "${SOURCE_DIR}/gui/*.cpp"
     "${SOURCE_DIR}/cli/*.h" "${SOURCE_DIR}/cli/*.cpp")
set(problems 0)
set(checked 0)
foreach(source IN LISTS sources)
    string(REGEX MATCH "^(engine|gui)/([^/]+)/" place "${source}")
    if(place)
        set(side "${CMAKE_MATCH_1}")
        set(module "${CMAKE_MATCH_2}")
    elseif(source MATCHES "^cli/")
        set(side cli)
        set(module cli)
    else()
        continue() # engine/torch_pch.h and the like belong to no module
    endif()
    file(STRINGS "${SOURCE_DIR}/${source}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"[^\"]+\"")
    foreach(line IN LISTS includes)
        string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*" "\\1" header "${line}")
        string(REGEX MATCH "^([^/]+)/" folder "${header}")
        if(NOT folder)
            continue() # a generated header (kiln_version.h, *.pb.h) or a neighbour's
        endif()
        set(target "${CMAKE_MATCH_1}")
        # engine/ and gui/ are both on the include path, engine first.
        if(EXISTS "${SOURCE_DIR}/engine/${header}")
            set(target_side engine)
        elseif(EXISTS "${SOURCE_DIR}/gui/${header}")
            set(target_side gui)
        else()
            continue() # a system or generated header
        endif()
        math(EXPR checked "${checked} + 1")
        set(why "")
        if(side STREQUAL "engine" AND target_side STREQUAL "gui")
            set(why "the engine includes nothing of gui/")
        elseif(side STREQUAL "engine" AND NOT target STREQUAL module)
            rank_of(${module} from)
            rank_of(${target} to)
            if(from LESS 0 OR to LESS 0)
                set(why "engine/${module} or engine/${target} is no layer of check_layers.cmake; add it")
            elseif(NOT to LESS from)
                set(why "engine/${target} is not below engine/${module}")
            endif()
        elseif(side STREQUAL "cli" AND target_side STREQUAL "gui")
            set(why "the kiln command line includes nothing of gui/")
        elseif(side STREQUAL "gui" AND target_side STREQUAL "gui" AND NOT target STREQUAL module)
            if(target STREQUAL "app")
                set(why "gui/app is above every other area of gui/")
            elseif(module STREQUAL "common")
                set(why "gui/common is below every other area of gui/")
            endif()
        endif()
        if(why)
            message(SEND_ERROR "${source}: #include \"${header}\" runs back up: ${why}")
            math(EXPR problems "${problems} + 1")
        endif()
    endforeach()
endforeach()
if(checked EQUAL 0)
    message(FATAL_ERROR "no includes found under ${SOURCE_DIR}: is SOURCE_DIR the repository?")
endif()
if(problems GREATER 0)
    message(FATAL_ERROR "${problems} include(s) run back up the layers")
endif()
message(STATUS "${checked} includes between modules, none running back up the layers")
