// hx_in_buffer: the flit buffers of one router input port, one circular buffer of Depth flits per
// virtual channel.
//
// Write side: the link. A flit on VC push_vc_i is appended to that VC's buffer at the end of the
// cycle and is visible at its front in the next cycle (the buffer-write stage of the router
// pipeline). Read side: per VC the is_head bit and the routing header of the front flit (for
// route computation and allocation), and one full-width read port, the front flit of VC rd_vc_i
// (the VC the port's switch arbiter picked); pop_i removes that flit. A VC may be pushed and
// popped in the same cycle. Credit-based flow control upstream guarantees that a full buffer is
// never pushed; full_o lets the router flag a violation of that contract.
//
// All VCs of the port share one storage array and one full-width read port (one multiplexer per
// port rather than one per VC), so a Verilated model copies at most one flit per port and cycle,
// not one per VC, and reads nothing of an empty VC. The pointers and counters of all VCs are
// packed into one vector each, a machine word or two in the model.
//
// Assertions (hx_assert.svh, docs/formal.md): the contract of the two ports (never push a full VC
// that is not popped in the same cycle, never pop an empty one, VC numbers in range), the count
// never above Depth, and the pointers agreeing with the count. scripts/formal.py proves with
// them that the buffer hands out every flit once, in order and unchanged.
`include "hx_assert.svh"
module hx_in_buffer #(
  parameter int unsigned NumVcs   = 3,
  parameter int unsigned Depth    = 8,
  parameter int unsigned Width    = 132,
  parameter int unsigned HeadBit  = 131,  // the flit type's is_head bit
  parameter int unsigned HdrWidth = 24,   // header bits [HdrWidth-1:0] shown per VC
  localparam int unsigned VcIdxW   = (NumVcs > 1) ? $clog2(NumVcs) : 1,
  localparam int unsigned PtrWidth = (Depth > 1) ? $clog2(Depth) : 1,
  localparam int unsigned CntWidth = $clog2(Depth + 1),
  localparam int unsigned AddrW    = (NumVcs * Depth > 1) ? $clog2(NumVcs * Depth) : 1
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  // write port
  input  logic                       push_i,
  input  logic [VcIdxW-1:0]          push_vc_i,   // < NumVcs
  input  logic [Width-1:0]           data_i,
  // per VC, the state of the buffer and its front flit
  output logic [NumVcs-1:0]          empty_o,
  output logic [NumVcs-1:0]          full_o,
  output logic [NumVcs-1:0]          front_head_o,
  output logic [NumVcs*HdrWidth-1:0] front_hdr_o,
  // read port
  input  logic [VcIdxW-1:0]          rd_vc_i,
  output logic [Width-1:0]           rd_data_o,   // front flit of VC rd_vc_i (when not empty)
  input  logic                       pop_i        // remove it; only when not empty
`ifdef FORMAL
  // Proofs only (yosys 0.23 has no hierarchical references): the state, for the invariants of
  // formal/hx_router_fv.sv. Slot v*Depth + i is bits [(v*Depth + i)*Width +: Width].
  , output logic [NumVcs*Depth*Width-1:0] fv_mem_o
  , output logic [NumVcs*PtrWidth-1:0]    fv_rd_o
  , output logic [NumVcs*CntWidth-1:0]    fv_count_o
`endif
);

  // VC v owns slots [v*Depth, (v+1)*Depth). mem2reg makes yosys build the storage as registers
  // and its reads as multiplexers from the start: left to infer a memory with several read ports,
  // yosys 0.23 tries to share those ports in its SAT-based `share` pass and runs out of memory
  // (killed at 23 GB after 11 minutes). Verilator ignores the attribute.
  (* mem2reg *) logic [Width-1:0] mem_q [NumVcs*Depth];
  logic [NumVcs*PtrWidth-1:0] rd_q, wr_q;
  logic [NumVcs*CntWidth-1:0] count_q;

  // Storage slot of the front flit of VC rd_vc_i. VC-indexed selects here and below are loops
  // over the VCs with constant offsets: a variable index times a constant would give synthesis
  // multipliers to build (and to try to share).
  logic [AddrW-1:0] rd_addr;
  always_comb begin
    rd_addr = '0;
    for (int unsigned v = 0; v < NumVcs; v++) begin
      if (rd_vc_i == VcIdxW'(v)) rd_addr = AddrW'(v * Depth) + AddrW'(rd_q[v*PtrWidth +: PtrWidth]);
    end
  end
  assign rd_data_o = mem_q[rd_addr];
`ifdef FORMAL
  for (genvar i = 0; i < NumVcs * Depth; i++) begin : g_fv_mem
    assign fv_mem_o[i*Width +: Width] = mem_q[i];
  end
  assign fv_rd_o    = rd_q;
  assign fv_count_o = count_q;
`endif

  // Per VC, from the front flit only the bits the router looks at, and those only for a VC that
  // holds a flit (0 otherwise): a Verilated model then reads no storage for the empty VCs.
  always_comb begin
    for (int unsigned v = 0; v < NumVcs; v++) begin
      empty_o[v]                          = (count_q[v*CntWidth +: CntWidth] == '0);
      full_o[v]                           = (count_q[v*CntWidth +: CntWidth] == CntWidth'(Depth));
      front_head_o[v]                     = 1'b0;
      front_hdr_o[v*HdrWidth +: HdrWidth] = '0;
      if (!empty_o[v]) begin
        front_head_o[v] = mem_q[AddrW'(v * Depth) + AddrW'(rd_q[v*PtrWidth +: PtrWidth])][HeadBit];
        front_hdr_o[v*HdrWidth +: HdrWidth] =
            mem_q[AddrW'(v * Depth) + AddrW'(rd_q[v*PtrWidth +: PtrWidth])][HdrWidth-1:0];
      end
    end
  end

  // The storage has no reset: a slot is read only after it was written. The write side looks at
  // the link only here, in clocked processes (no combinational logic depends on it).
  always_ff @(posedge clk_i) begin
    if (push_i) begin
      logic [AddrW-1:0] wr_addr;
      wr_addr = '0;
      for (int unsigned v = 0; v < NumVcs; v++) begin
        if (push_vc_i == VcIdxW'(v)) wr_addr = AddrW'(v * Depth) + AddrW'(wr_q[v*PtrWidth +: PtrWidth]);
      end
      mem_q[wr_addr] <= data_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_q    <= '0;
      wr_q    <= '0;
      count_q <= '0;
    end else if (push_i || pop_i) begin
      for (int unsigned v = 0; v < NumVcs; v++) begin
        if (push_i && push_vc_i == VcIdxW'(v)) begin
          wr_q[v*PtrWidth +: PtrWidth] <= (32'(wr_q[v*PtrWidth +: PtrWidth]) == Depth - 1)
                                          ? '0 : wr_q[v*PtrWidth +: PtrWidth] + 1'b1;
        end
        if (pop_i && rd_vc_i == VcIdxW'(v)) begin
          rd_q[v*PtrWidth +: PtrWidth] <= (32'(rd_q[v*PtrWidth +: PtrWidth]) == Depth - 1)
                                          ? '0 : rd_q[v*PtrWidth +: PtrWidth] + 1'b1;
        end
        // a push and a pop on the same VC leave its count unchanged
        if ((push_i && push_vc_i == VcIdxW'(v)) && !(pop_i && rd_vc_i == VcIdxW'(v))) begin
          count_q[v*CntWidth +: CntWidth] <= count_q[v*CntWidth +: CntWidth] + 1'b1;
        end else if ((pop_i && rd_vc_i == VcIdxW'(v)) && !(push_i && push_vc_i == VcIdxW'(v))) begin
          count_q[v*CntWidth +: CntWidth] <= count_q[v*CntWidth +: CntWidth] - 1'b1;
        end
      end
    end
  end

`ifdef HX_ASSERTS_ON
  // One block per VC (a generate loop, not a procedural one: yosys names each check after its
  // label, which must be unique per block).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      `HX_ASSUME(BufPushVcExists, !push_i || 32'(push_vc_i) < NumVcs)
      `HX_ASSUME(BufPopVcExists, !pop_i || 32'(rd_vc_i) < NumVcs)
    end
  end
  for (genvar v = 0; v < NumVcs; v++) begin : g_chk
    logic [PtrWidth-1:0] rd, wr;
    logic [CntWidth-1:0] cnt;
    logic                push, pop;
    assign rd   = rd_q[v*PtrWidth +: PtrWidth];
    assign wr   = wr_q[v*PtrWidth +: PtrWidth];
    assign cnt  = count_q[v*CntWidth +: CntWidth];
    assign push = push_i && push_vc_i == VcIdxW'(v);
    assign pop  = pop_i && rd_vc_i == VcIdxW'(v);
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (rst_ni) begin
        // A push into a full VC would overwrite its front flit: the flit lost by a broken credit
        // loop. A pop of the same VC in the same cycle frees the slot first.
        `HX_ASSUME(BufNoPushWhenFull, !(push && full_o[v] && !pop))
        `HX_ASSUME(BufNoPopWhenEmpty, !(pop && empty_o[v]))
        `HX_ASSERT(BufCountBounded, 32'(cnt) <= Depth)
        `HX_ASSERT(BufPointersInRange, 32'(rd) < Depth && 32'(wr) < Depth)
        // wr = rd + count (mod Depth): the invariant that makes the circular buffer a FIFO.
        // (rd < Depth and count <= Depth, so one subtraction wraps the sum; no divider.)
        `HX_ASSERT(BufPointersAgree, 32'(wr) == ((32'(rd) + 32'(cnt) >= Depth)
                                                  ? 32'(rd) + 32'(cnt) - Depth : 32'(rd) + 32'(cnt)))
      end
    end
  end
`endif

endmodule
