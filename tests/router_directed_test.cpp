// router_directed_test.cpp: the directed router tests (router_directed_tests.h) on one model.
//
// The model is chosen at compile time, so the same file builds the RTL test (defaults below)
// and the gate-level test (HX_ROUTER_MODEL=Vhx_router_gl, HX_ROUTER_MODEL_HEADER="Vhx_router_gl.h").
#ifndef HX_ROUTER_MODEL
#define HX_ROUTER_MODEL Vhx_router
#endif
#ifndef HX_ROUTER_MODEL_HEADER
#define HX_ROUTER_MODEL_HEADER "Vhx_router.h"
#endif

#include HX_ROUTER_MODEL_HEADER

#include "router_directed_tests.h"

HX_INSTANTIATE_ROUTER_TESTS(HX_ROUTER_MODEL)
