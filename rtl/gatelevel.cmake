# Gate-level re-simulation model of the router.
#
# scripts/netlist.sh synthesizes hx_router (default parameters) to yosys generic gates with the
# same front end as `make synth` and writes a flat netlist with the RTL's port list. The netlist
# is Verilated as hx_router_gl_model (class Vhx_router_gl), which the router's directed tests
# drive exactly as they drive the RTL model (tests/gatelevel). A disagreement between the two
# means yosys built something other than what Verilator simulates, so a synthesis estimate
# counts only while these tests pass.
#
# verilate() runs at configure time, so the netlist is produced here, at configure time too: when
# it is missing or older than any RTL source or the scripts that make it (an RTL edit re-runs
# CMake through CMAKE_CONFIGURE_DEPENDS). yosys takes about 40 s for the router, 6 s for the
# table, on one core, while Verilator's runs of the RTL models use another: so rtl/CMakeLists.txt
# starts the syntheses in the background (hx_netlist_start, before it Verilates the RTL) and
# Verilates the netlists at its end (hx_gatelevel_model, which waits for them).

set(HX_GL_SCRIPTS ${PROJECT_SOURCE_DIR}/scripts/netlist.sh
                  ${PROJECT_SOURCE_DIR}/scripts/netlist_start.sh
                  ${PROJECT_SOURCE_DIR}/scripts/yosys-frontend.sh)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${HX_GL_SCRIPTS})

# hx_netlist_start(NETLIST <file> TOP <module> SOURCES <rtl>... [PARAMS Name=Value ...])
# Starts scripts/netlist.sh in the background (scripts/netlist_start.sh, which also removes the
# status of an earlier run) when NETLIST is missing or older than any of SOURCES or the netlist
# scripts. It writes its exit status to <file>.rc when it ends, which hx_gatelevel_model waits for.
function(hx_netlist_start)
  cmake_parse_arguments(ARG "" "TOP;NETLIST" "SOURCES;PARAMS" ${ARGN})
  set(stale FALSE)
  if(NOT EXISTS ${ARG_NETLIST})
    set(stale TRUE)
  else()
    foreach(src IN LISTS ARG_SOURCES HX_GL_SCRIPTS)
      if("${src}" IS_NEWER_THAN "${ARG_NETLIST}")
        set(stale TRUE)
        break()
      endif()
    endforeach()
  endif()
  if(stale)
    message(STATUS "Synthesizing the gate-level netlist of ${ARG_TOP} ${ARG_PARAMS} (yosys, in the background)")
    execute_process(COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/netlist_start.sh ${ARG_TOP} ${ARG_NETLIST}
      ${ARG_PARAMS} RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "scripts/netlist_start.sh failed (${rc})")
    endif()
    set_property(GLOBAL APPEND PROPERTY HX_NETLISTS_STARTED ${ARG_NETLIST})
  endif()
endfunction()

# hx_gatelevel_model(<target> PREFIX <class> NETLIST <file> TOP <module>)
# Waits for a synthesis of NETLIST that hx_netlist_start started, then Verilates the netlist as
# <target>. Generated code: no -Wall (a flat netlist of yosys cells trips style warnings such as
# unused wires that say nothing about the design); Verilator's default warnings stay fatal.
function(hx_gatelevel_model target)
  cmake_parse_arguments(ARG "" "TOP;PREFIX;NETLIST" "" ${ARGN})
  get_property(started GLOBAL PROPERTY HX_NETLISTS_STARTED)
  if(ARG_NETLIST IN_LIST started)
    # 15 minutes: yosys on a slow machine takes a few; a synthesis that wrote no status was killed.
    execute_process(COMMAND bash -c "for i in $(seq 9000); do [ -e '${ARG_NETLIST}.rc' ] && exit 0; sleep 0.1; done; exit 1"
      RESULT_VARIABLE waited)
    if(NOT waited EQUAL 0)
      message(FATAL_ERROR "the synthesis of ${ARG_NETLIST} wrote no status in 15 minutes; see ${ARG_NETLIST}.out")
    endif()
    file(STRINGS ${ARG_NETLIST}.rc rc)
    if(NOT rc EQUAL 0)
      string(REGEX REPLACE "\\.v$" ".log" log ${ARG_NETLIST})
      message(FATAL_ERROR "scripts/netlist.sh failed (${rc}) for ${ARG_TOP}; see ${ARG_NETLIST}.out and ${log}")
    endif()
  endif()
  # A flat netlist is tens of MB of straight-line C++ that the tests run for a few thousand
  # cycles: TESTS_ONLY's -O1 compiles it several times faster, and the tests take no measurably
  # longer.
  hx_verilate_model(${target}
    TOP ${ARG_TOP}
    PREFIX ${ARG_PREFIX}
    TESTS_ONLY
    SOURCES ${ARG_NETLIST}
    ARGS -O3 --x-assign fast --x-initial fast --no-timing)
endfunction()

# The two netlists: the router with default parameters, and the reduction table with Entries=2
# (256 B), which the same directed and (shortened) random tests drive as the RTL model
# Vhx_reduction_table_e2 (docs/reduction-unit.md). rtl/CMakeLists.txt calls hx_gatelevel_start
# before it Verilates the RTL, and hx_gatelevel_models at its end.
set(HX_ROUTER_NETLIST ${CMAKE_BINARY_DIR}/gatelevel/hx_router_netlist.v)
set(HX_TABLE_NETLIST ${CMAKE_BINARY_DIR}/gatelevel/hx_reduction_table_e2_netlist.v)

macro(hx_gatelevel_start)
  hx_netlist_start(TOP hx_router NETLIST ${HX_ROUTER_NETLIST} SOURCES ${HX_RTL_SOURCES})
  hx_netlist_start(TOP hx_reduction_table NETLIST ${HX_TABLE_NETLIST} SOURCES ${HX_RED_RTL_SOURCES}
    PARAMS Entries=2)
endmacro()

# hx_router_gl_model (class Vhx_router_gl) and hx_reduction_table_gl_model (Vhx_reduction_table_gl).
macro(hx_gatelevel_models)
  hx_gatelevel_model(hx_router_gl_model TOP hx_router PREFIX Vhx_router_gl NETLIST ${HX_ROUTER_NETLIST})
  hx_gatelevel_model(hx_reduction_table_gl_model TOP hx_reduction_table PREFIX Vhx_reduction_table_gl
    NETLIST ${HX_TABLE_NETLIST})
endmacro()
