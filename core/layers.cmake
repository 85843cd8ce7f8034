# The layers of core/ and the rule between them, and what widgets/ may include (docs/architecture.md), checked on
# every build:
#   cmake -DSOURCE_DIR=<repository> -DSTAMP=<file> -P core/layers.cmake
# Each folder of core/ may include headers of the folders listed for it (and its own), nothing else; the table must
# have no cycle; the internal headers below may be included only from their own folder — not from another layer, the
# command line or the tests. Any breach fails the build with FILE:LINE: what it includes and what it may include.

# folder  →  folders it may include
set(layer_diagnostics "")
set(layer_common "diagnostics")
set(layer_units "common")
set(layer_topology "common")
set(layer_collective "common;topology")
set(layer_memory_system "common;scenario")
set(layer_presets "common")
set(layer_oracle "common;device;model;scenario;topology;units")
set(layer_io "common")
set(layer_scenario "common;diagnostics;topology;units")
set(layer_device "common;diagnostics;scenario;units")
set(layer_model "common;device;scenario")
set(layer_strategy "common;model;scenario")
set(layer_validation "common;diagnostics;model;presets;scenario;strategy;topology;units")
set(layer_compile "collective;common;device;memory_system;model;scenario;strategy;topology;units")
set(layer_engine "common;compile")
set(layer_analysis "collective;common;compile;engine;model;scenario;topology;units")
set(layer_simulation "analysis;common;compile;engine;scenario;validation")
set(layer_oracle_comparison "analysis;common;compile;oracle;scenario;simulation;units")
set(layer_export "analysis;common;units")
set(layer_scenario_file "common;device;diagnostics;io;model;presets;scenario;strategy;topology;units;validation")
set(layer_sweep "analysis;common;compile;diagnostics;export;model;scenario;scenario_file;simulation;units;validation")
set(layer_target "analysis;common;oracle;strategy;units")
set(layer_store "analysis;common;compile;export;io;scenario;scenario_file;sweep;units")
set(layer_interop "collective;common;diagnostics;export;presets;scenario;scenario_file;topology;units")
set(layer_lesson "analysis;common;diagnostics;export;oracle;oracle_comparison;presets;scenario;scenario_file;simulation;sweep;target;units")

set(internal_headers
    compile/graph_builder.h
    compile/task_emitter.h
    compile/transfer_costs.h
    scenario_file/scenario_readers.h
    scenario_file/yaml_text_scan.h
    store/run_warnings.h
    store/schema_check.h
    store/sqlite_database.h
    store/sweep_views.h
    store/warning_codes_migration.h
    store/warning_sentences.h
    validation/checks.h
    validation/problem_list.h
    engine/micro_batch_index.h)

# widgets/: the core seen through its public folders, not the simulator's inside (what the views show comes through
# simulation/ and analysis/); each view's folder includes the shared folders, never another view's (views do not call
# each other: the main window connects them).
set(hidden_from_widgets "collective;compile;engine")
set(widget_views "breakdown;history;lessons;memory;oracle;strategy;summary;sweeps;timeline;topology;whatif")

if(NOT CMAKE_SCRIPT_MODE_FILE)
    return()
endif()
cmake_policy(VERSION 3.25)

set(problems "")
get_cmake_property(variables VARIABLES)
set(layers "")
foreach(variable IN LISTS variables)
    if(variable MATCHES "^layer_(.+)$")
        list(APPEND layers "${CMAKE_MATCH_1}")
    endif()
endforeach()

# Every folder of core/ with sources has a row.
file(GLOB entries LIST_DIRECTORIES true "${SOURCE_DIR}/core/*")
foreach(entry IN LISTS entries)
    get_filename_component(folder "${entry}" NAME)
    if(IS_DIRECTORY "${entry}" AND NOT folder IN_LIST layers)
        string(APPEND problems "core/${folder}/: a folder with no row in core/layers.cmake; add one\n")
    endif()
endforeach()

# The table has no cycle: repeatedly remove folders whose allowed folders are all removed.
set(remaining ${layers})
set(progress TRUE)
while(progress AND remaining)
    set(progress FALSE)
    foreach(layer IN LISTS remaining)
        set(ready TRUE)
        foreach(dependency IN LISTS layer_${layer})
            if(dependency IN_LIST remaining)
                set(ready FALSE)
            endif()
        endforeach()
        if(ready)
            list(REMOVE_ITEM remaining "${layer}")
            set(progress TRUE)
        endif()
    endforeach()
endwhile()
if(remaining)
    string(APPEND problems "core/layers.cmake: the folders ${remaining} include one another in a cycle\n")
endif()

# Every #include "folder/…" in core/, app/, widgets/ and tests/.
file(GLOB_RECURSE sources "${SOURCE_DIR}/core/*.h" "${SOURCE_DIR}/core/*.cpp" "${SOURCE_DIR}/app/*.h"
     "${SOURCE_DIR}/app/*.cpp" "${SOURCE_DIR}/widgets/*.h" "${SOURCE_DIR}/widgets/*.cpp" "${SOURCE_DIR}/tests/*.h"
     "${SOURCE_DIR}/tests/*.cpp")
foreach(source IN LISTS sources)
    file(RELATIVE_PATH relative "${SOURCE_DIR}" "${source}")
    if(relative MATCHES "^tests/data/")
        continue()  # fixtures of this check's own tests
    endif()
    set(own "")
    if(relative MATCHES "^core/([^/]+)/")
        set(own "${CMAKE_MATCH_1}")
    endif()
    set(own_widgets "")
    if(relative MATCHES "^widgets/([^/]+)/")
        set(own_widgets "${CMAKE_MATCH_1}")
    endif()
    file(STRINGS "${source}" lines)
    set(number 0)
    foreach(line IN LISTS lines)
        math(EXPR number "${number} + 1")
        if(NOT line MATCHES "^[ \t]*#[ \t]*include[ \t]+\"(([^/\"]+)/[^\"]+)\"")
            continue()
        endif()
        set(header "${CMAKE_MATCH_1}")
        set(folder "${CMAKE_MATCH_2}")
        if(own_widgets AND EXISTS "${SOURCE_DIR}/widgets/${header}")
            if(folder IN_LIST widget_views AND NOT folder STREQUAL own_widgets AND NOT own_widgets STREQUAL "main_window")
                string(APPEND problems "${relative}:${number}: widgets/${own_widgets}/ includes ${header}, another "
                                       "view's; views share only document, navigation, picture, problems, results, "
                                       "run, scenario_form and style\n")
            endif()
            continue()
        endif()
        if(own_widgets AND folder IN_LIST hidden_from_widgets)
            string(APPEND problems "${relative}:${number}: widgets/ includes ${header}; the views see the core "
                                   "through its public folders, not ${folder}/\n")
        endif()
        if(NOT folder IN_LIST layers)
            continue()  # not a core header (e.g. a test helper)
        endif()
        if(header IN_LIST internal_headers AND NOT folder STREQUAL own)
            string(APPEND problems "${relative}:${number}: includes ${header}, internal to core/${folder}/\n")
        endif()
        if(own AND NOT folder STREQUAL own AND NOT folder IN_LIST layer_${own})
            string(REPLACE ";" ", " allowed "${layer_${own}}")
            string(APPEND problems
                   "${relative}:${number}: core/${own}/ includes ${header}, but may include only ${allowed}\n")
        endif()
    endforeach()
endforeach()

if(problems)
    message(NOTICE "${problems}")  # unwrapped, one FILE:LINE a line
    message(FATAL_ERROR "The layers of core/ are broken (docs/architecture.md): see the lines above")
endif()
file(WRITE "${STAMP}" "layers checked\n")
