// router_lanes_test.cpp: the four-lane router tests (router_lanes_tests.h) on one model.
//
// The model is chosen at compile time, as in router_directed_test.cpp: the RTL by default, the
// gate-level netlist with HX_ROUTER_MODEL=Vhx_router_l4_gl, HX_ROUTER_MODEL_HEADER="Vhx_router_l4_gl.h".
#ifndef HX_ROUTER_MODEL
#define HX_ROUTER_MODEL Vhx_router_l4
#endif
#ifndef HX_ROUTER_MODEL_HEADER
#define HX_ROUTER_MODEL_HEADER "Vhx_router_l4.h"
#endif

#include HX_ROUTER_MODEL_HEADER

#include "router_lanes_tests.h"

HX_INSTANTIATE_ROUTER_LANES_TESTS(HX_ROUTER_MODEL)
