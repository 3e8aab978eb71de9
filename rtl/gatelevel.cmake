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
# CMake through CMAKE_CONFIGURE_DEPENDS). It takes about 25 s.

set(HX_GL_SCRIPTS ${PROJECT_SOURCE_DIR}/scripts/netlist.sh
                  ${PROJECT_SOURCE_DIR}/scripts/yosys-frontend.sh)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${HX_GL_SCRIPTS})

# hx_gatelevel_model(<target> TOP <module> PREFIX <class> NETLIST <file> SOURCES <rtl>...
#                    [PARAMS Name=Value ...])
# Synthesizes TOP (with PARAMS) to NETLIST when it is missing or older than any of SOURCES or the
# netlist scripts, then Verilates the netlist as <target>. Generated code: no -Wall (a flat
# netlist of yosys cells trips style warnings such as unused wires that say nothing about the
# design); Verilator's default warnings stay fatal.
function(hx_gatelevel_model target)
  cmake_parse_arguments(ARG "" "TOP;PREFIX;NETLIST" "SOURCES;PARAMS" ${ARGN})
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
    message(STATUS "Synthesizing the gate-level netlist of ${ARG_TOP} ${ARG_PARAMS} (yosys)")
    execute_process(
      COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/netlist.sh ${ARG_TOP} ${ARG_NETLIST} ${ARG_PARAMS}
      RESULT_VARIABLE rc)
    string(REGEX REPLACE "\\.v$" ".log" log ${ARG_NETLIST})
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "scripts/netlist.sh failed (${rc}); see ${log}")
    endif()
  endif()
  hx_verilate_model(${target}
    TOP ${ARG_TOP}
    PREFIX ${ARG_PREFIX}
    SOURCES ${ARG_NETLIST}
    ARGS -O3 --x-assign fast --x-initial fast --no-timing)
  # A flat netlist is tens of MB of straight-line C++ that the tests run for a few thousand
  # cycles: -O1 compiles it several times faster, and the tests take no measurably longer.
  target_compile_options(${target} PRIVATE -O1)
endfunction()

# The router with default parameters (about 25 s of yosys).
hx_gatelevel_model(hx_router_gl_model
  TOP hx_router
  PREFIX Vhx_router_gl
  NETLIST ${CMAKE_BINARY_DIR}/gatelevel/hx_router_netlist.v
  SOURCES ${HX_RTL_SOURCES})

# ---- gate-level twin of one reduction table (docs/reduction-unit.md) ----
# hx_reduction_table with Entries=2 (256 B), Verilated as hx_reduction_table_gl_model (class
# Vhx_reduction_table_gl) and driven by the same directed and (shortened) random tests as the RTL
# model Vhx_reduction_table_e2 (tests/gatelevel).
hx_gatelevel_model(hx_reduction_table_gl_model
  TOP hx_reduction_table
  PREFIX Vhx_reduction_table_gl
  NETLIST ${CMAKE_BINARY_DIR}/gatelevel/hx_reduction_table_e2_netlist.v
  SOURCES ${HX_RED_RTL_SOURCES}
  PARAMS Entries=2)
