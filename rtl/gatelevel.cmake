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

set(HX_GL_NETLIST ${CMAKE_BINARY_DIR}/gatelevel/hx_router_netlist.v)
set(HX_GL_SCRIPTS ${PROJECT_SOURCE_DIR}/scripts/netlist.sh
                  ${PROJECT_SOURCE_DIR}/scripts/yosys-frontend.sh)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${HX_GL_SCRIPTS})

set(hx_gl_stale FALSE)
if(NOT EXISTS ${HX_GL_NETLIST})
  set(hx_gl_stale TRUE)
else()
  foreach(src IN LISTS HX_RTL_SOURCES HX_GL_SCRIPTS)
    if("${src}" IS_NEWER_THAN "${HX_GL_NETLIST}")
      set(hx_gl_stale TRUE)
      break()
    endif()
  endforeach()
endif()
if(hx_gl_stale)
  message(STATUS "Synthesizing the gate-level netlist of hx_router (yosys, ~25 s)")
  execute_process(
    COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/netlist.sh hx_router ${HX_GL_NETLIST}
    RESULT_VARIABLE hx_gl_rc)
  if(NOT hx_gl_rc EQUAL 0)
    message(FATAL_ERROR "scripts/netlist.sh failed (${hx_gl_rc}); see ${CMAKE_BINARY_DIR}/gatelevel/hx_router_netlist.log")
  endif()
endif()

# Generated code: no -Wall (a flat netlist of yosys cells trips style warnings such as unused
# wires that say nothing about the design); Verilator's default warnings stay fatal.
hx_verilate_model(hx_router_gl_model
  TOP hx_router
  PREFIX Vhx_router_gl
  SOURCES ${HX_GL_NETLIST}
  ARGS -O3 --x-assign fast --x-initial fast --no-timing)

# ---- gate-level twin of one reduction table (docs/reduction-unit.md) ----
# hx_reduction_table with Entries=2 (256 B), synthesized the same way, Verilated as
# hx_reduction_table_gl_model (class Vhx_reduction_table_gl) and driven by the same directed and
# (shortened) random tests as the RTL model Vhx_reduction_table_e2 (tests/gatelevel).
set(HX_GL_RED_NETLIST ${CMAKE_BINARY_DIR}/gatelevel/hx_reduction_table_e2_netlist.v)
set(hx_gl_red_stale FALSE)
if(NOT EXISTS ${HX_GL_RED_NETLIST})
  set(hx_gl_red_stale TRUE)
else()
  foreach(src IN LISTS HX_RED_RTL_SOURCES HX_GL_SCRIPTS)
    if("${src}" IS_NEWER_THAN "${HX_GL_RED_NETLIST}")
      set(hx_gl_red_stale TRUE)
      break()
    endif()
  endforeach()
endif()
if(hx_gl_red_stale)
  message(STATUS "Synthesizing the gate-level netlist of hx_reduction_table, Entries=2 (yosys)")
  execute_process(
    COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/netlist.sh hx_reduction_table ${HX_GL_RED_NETLIST}
            Entries=2
    RESULT_VARIABLE hx_gl_red_rc)
  if(NOT hx_gl_red_rc EQUAL 0)
    message(FATAL_ERROR "scripts/netlist.sh failed (${hx_gl_red_rc}); see ${CMAKE_BINARY_DIR}/gatelevel/hx_reduction_table_e2_netlist.log")
  endif()
endif()
hx_verilate_model(hx_reduction_table_gl_model
  TOP hx_reduction_table
  PREFIX Vhx_reduction_table_gl
  SOURCES ${HX_GL_RED_NETLIST}
  ARGS -O3 --x-assign fast --x-initial fast --no-timing)
