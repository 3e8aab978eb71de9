// hx_vc_fifo: the flit buffer of one input virtual channel.
//
// A circular buffer of Depth flits. A pushed flit becomes visible at the head in the next cycle
// (the buffer-write stage of the router pipeline). Push and pop may happen in the same cycle.
// Credit-based flow control upstream guarantees that a full buffer is never pushed; overflow_o
// flags a violation of that contract (it must stay low; tests and proofs check it).
module hx_vc_fifo #(
  parameter int unsigned Width = 8,
  parameter int unsigned Depth = 8,
  localparam int unsigned PtrWidth = (Depth > 1) ? $clog2(Depth) : 1,
  localparam int unsigned CntWidth = $clog2(Depth + 1)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                push_i,
  input  logic [Width-1:0]    data_i,
  input  logic                pop_i,     // only when !empty_o
  output logic [Width-1:0]    head_o,
  output logic                empty_o,
  output logic                overflow_o // a push met a full buffer (contract violation)
);

  logic [Width-1:0]    mem_q [Depth];
  logic [PtrWidth-1:0] rd_q, wr_q;
  logic [CntWidth-1:0] count_q;

  function automatic logic [PtrWidth-1:0] next_ptr(logic [PtrWidth-1:0] p);
    next_ptr = (32'(p) == Depth - 1) ? '0 : p + 1'b1;
  endfunction

  assign head_o     = mem_q[rd_q];
  assign empty_o    = (count_q == '0);
  assign overflow_o = push_i && (32'(count_q) == Depth) && !pop_i;

  // The storage has no reset: a slot is read only after it was written.
  always_ff @(posedge clk_i) begin
    if (push_i) mem_q[wr_q] <= data_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_q    <= '0;
      wr_q    <= '0;
      count_q <= '0;
    end else begin
      if (push_i) wr_q <= next_ptr(wr_q);
      if (pop_i)  rd_q <= next_ptr(rd_q);
      count_q <= count_q + CntWidth'(push_i) - CntWidth'(pop_i);
    end
  end

endmodule
