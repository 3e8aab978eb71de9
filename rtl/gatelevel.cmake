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
