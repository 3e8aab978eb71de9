// hx_assert.svh: the assertion macros of the hxsim RTL (lowRISC style: the check sits beside the
// logic it guards, in a block that only simulation and formal tools compile).
//
//   `ifdef HX_ASSERTS_ON
//     always_ff @(posedge clk_i or negedge rst_ni) begin
//       if (rst_ni) begin
//         `HX_ASSERT(CreditsBounded, cred_q <= Depth)
//       end
//     end
//   `endif
//
// HX_ASSERTS_ON is defined for Verilator (VERILATOR; it compiles the checks only with --assert,
// so a model built without it pays nothing) and for yosys `read_verilog -formal` (FORMAL). Any
// other reader, synthesis above all, sees no checks: a netlist must not contain checker logic,
// and yosys 0.23 cannot parse the action block (`else $error`) outside formal mode. (yosys 0.23
// does not define SYNTHESIS by itself, so that macro cannot be the guard.)
//
// Only immediate assertions in clocked blocks are used: yosys 0.23 (without Verific) parses no
// concurrent `assert property`, and a clocked check sees the settled values of the cycle, never
// a glitch between two evaluations of combinational logic. The reset is tested inside the block,
// in a process that is asynchronous on it like the flops it checks (Verilator's --assert lint
// rejects a signal used both as an asynchronous and a synchronous reset).
//
//   HX_ASSERT(name, cond)  a property of this block: it must hold for every legal input; formal
//                          proves it (scripts/formal.py), simulation reports a violation.
//   HX_ASSUME(name, cond)  a contract on this block's inputs, which its environment must keep. In
//                          simulation it is checked like an assertion (it catches the broken
//                          neighbour); in a proof of this block alone it constrains the inputs.
//                          scripts/formal.py turns the assumptions of every block other than the
//                          one under proof into assertions (chformal -assume2assert), so a
//                          contract inside a proven block is proven, not assumed.
// A failure prints the hierarchical scope and the name (docs/formal.md lists every name).
`ifndef HX_ASSERT_SVH
`define HX_ASSERT_SVH

`ifdef FORMAL
  `define HX_ASSERTS_ON
  // No label: yosys 0.23 names a procedural check after its bare label, which must then be
  // unique in the module even across generate blocks. scripts/formal.py finds a check's name from
  // its source line (the `src` attribute of the $assert cell) instead.
  `define HX_ASSERT(name, cond) assert (cond);
  `define HX_ASSUME(name, cond) assume (cond);
`elsif VERILATOR
  `define HX_ASSERTS_ON
  `define HX_ASSERT(name, cond) \
    name: assert (cond) else $error("%m: assertion %s failed", `"name`");
  `define HX_ASSUME(name, cond) \
    name: assert (cond) else $error("%m: input contract %s broken", `"name`");
`endif

`endif  // HX_ASSERT_SVH
