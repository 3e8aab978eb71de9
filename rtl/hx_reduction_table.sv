// hx_reduction_table: the reduction table of one switch port (Klenk et al., ISCA 2020, Fig. 5).
//
// Entries of 128 B partial data, keyed by a 32-bit line address (tag), each with a contribution
// count, the expected count, a source id, the ALU op, a mode (pull/push) and a last-use time. An
// ALU array (hx_reduce_alu) combines one 128-bit flit per cycle with the stored row.
//
// Streams (valid/ready): a packet is a header flit (hx_red_pkg::red_hdr_t) and 0 or 8 data flits.
// Everything streams at one flit per cycle with no bubble: an output header is offered in the same
// cycle as the input header that causes it, and each output data flit in the same cycle as the
// input data flit it is computed from; while the output is not ready the input stalls.
//   PULL_REQ  allocate (tag hit: re-initialise that entry; else a free one); full: stall at the
//             first hop, else consume without allocating.
//   PULL_RSP  hit: reduce into the entry (store as is when its count is 0), or, when the counts
//   PUSH_WR   reach expected, stream RESULT = ALU(entry, input) out and free the entry.
//             PULL_RSP miss: bypass. PUSH_WR miss: count == expected: stream it out as RESULT;
//             free entry: allocate (push) and store; full: evict the least recently used push
//             entry as an EVICT packet while the new data is written into it (read before write
//             per row); no push entry: bypass.
//   other     (any other kind, or an owned kind with an unexpected nflits): bypass unchanged.
//   timeout   between packets, a push entry idle for more than timeout_i cycles (timeout_i != 0)
//             is streamed out as EVICT (header + 8 rows) and freed; the input waits meanwhile.
//
// Timeout evictions start only at a packet boundary when no output header is already being
// offered (pending_q), so an offered header never changes before it is taken. A victim for a push
// miss is therefore chosen only when no entry has timed out, and the least recently used push
// entry is then also the longest idle one: "a timed-out entry if any, else LRU" reduces to LRU.
// Ties go to the lowest index. in_ready_o depends combinationally on in_flit_i (header decode)
// and out_ready_i, never on in_valid_i; out_valid_o depends on in_valid_i. A header that is not
// taken leaves no state behind, so the switch may withdraw a stalled PULL_REQ.
//
// Assertions (hx_assert.svh; docs/formal.md): the contributions a packet brings never take an
// entry past its expected count (a contract on the senders), so no entry's count exceeds its
// expected count and a push entry always holds a partial; an entry is freed only while allocated
// and is no longer allocated once its RESULT or EVICT has left (freed exactly once); an EVICT
// carries a partial, a RESULT a complete reduction, and an evicted tag is held by no entry
// afterwards, so the evicted partial can never also complete.
`include "hx_assert.svh"
module hx_reduction_table #(
  parameter int unsigned Entries   = 8,   // table bytes / 128: 2 (256 B), 8 (1 kB), 32 (4 kB)
  parameter int unsigned TimeWidth = 32,
  localparam int unsigned OccWidth = $clog2(Entries + 1),
  localparam int unsigned FlitWidth = hx_red_pkg::RedFlitWidth
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [TimeWidth-1:0] now_i,
  input  logic [TimeWidth-1:0] timeout_i,
  input  logic                 in_valid_i,
  output logic                 in_ready_o,
  input  logic [FlitWidth-1:0] in_flit_i,
  output logic                 out_valid_o,
  input  logic                 out_ready_i,
  output logic [FlitWidth-1:0] out_flit_o,
  output logic [OccWidth-1:0]  occupancy_o
);

  localparam int unsigned IdxWidth = (Entries > 1) ? $clog2(Entries) : 1;
  localparam int unsigned CW = hx_red_pkg::RedCountWidth;
  localparam int unsigned TagW = hx_red_pkg::RedTagWidth;
  localparam int unsigned SrcW = hx_red_pkg::RedSrcWidth;
  localparam int unsigned OpW = hx_red_pkg::RedAluOpWidth;
  localparam int unsigned Rows = Entries * hx_red_pkg::RedDataFlits;
  localparam int unsigned RowWidth = $clog2(Rows);  // {entry, data flit} (no entry bits for 1)

  typedef enum logic [1:0] {
    StIdle  = 2'd0,   // expecting a header (or starting a timeout eviction)
    StToHdr = 2'd1,   // offering the EVICT header of a timed-out entry (to_idx_q)
    StData  = 2'd2    // data flits of a packet
  } state_e;

  // ---- state ----
  state_e                     state_q, state_d;
  logic [Entries-1:0]         valid_q, valid_d;
  logic [Entries-1:0]         push_q, push_d;      // mode: 1 push, 0 pull
  // Per-entry metadata as memories of plain vectors, written through one port (meta_idx): the
  // Verilated model then writes one word per update instead of copying every flat vector twice
  // per evaluation, and reads the hit and victim entries by index.
  logic [TagW-1:0]            tag_q  [Entries];
  logic [CW-1:0]              cnt_q  [Entries];
  logic [CW-1:0]              exp_q  [Entries];
  logic [SrcW-1:0]            src_q  [Entries];
  logic [OpW-1:0]             op_q   [Entries];
  logic [TimeWidth-1:0]       last_q [Entries];
  // Row e*8+b: entry e, data flit b. A memory, not one flat vector: each access then touches one
  // row, which keeps the Verilated model fast (a flat 32-kbit vector costs every access a scan).
  logic [FlitWidth-1:0]       data_q [Rows];

  logic                       pending_q, pending_d;   // an output was offered and not taken
  logic [IdxWidth-1:0]        to_idx_q, to_idx_d;     // timed-out victim being offered
  // Data phase of the current packet.
  logic [IdxWidth-1:0]        d_idx_q, d_idx_d;       // entry read/written
  logic [3:0]                 d_beat_q, d_beat_d;     // data flit number
  logic [3:0]                 d_num_q, d_num_d;       // data flits in the packet
  logic                       d_in_q, d_in_d;         // consumes input flits
  logic                       d_out_q, d_out_d;       // produces output flits
  logic                       d_wr_q, d_wr_d;         // writes the entry row
  logic                       d_old_q, d_old_d;       // output = stored row (else new row)
  logic                       d_comb_q, d_comb_d;     // new row = ALU(stored, input) (else input)
  logic [OpW-1:0]             d_op_q, d_op_d;

  // ---- header decode ----
  hx_red_pkg::red_hdr_t hdr;
  assign hdr = in_flit_i;

  logic is_pull_req, is_pull_rsp, is_push_wr;
  assign is_pull_req = (hdr.kind == hx_red_pkg::RedKindPullReq) && (hdr.nflits == 4'd0);
  assign is_pull_rsp = (hdr.kind == hx_red_pkg::RedKindPullRsp) && (hdr.nflits == 4'd8);
  assign is_push_wr  = (hdr.kind == hx_red_pkg::RedKindPushWr)  && (hdr.nflits == 4'd8);

  // ---- per-entry search: hit, free, timed out, LRU push entry (lowest index on ties) ----
  logic [Entries-1:0]  hit_vec, to_vec;
  logic                hit_any, free_any, to_any, lru_any;
  logic [IdxWidth-1:0] hit_idx, free_idx, to_first, lru_idx;
  logic [TimeWidth-1:0] lru_age, age;
  logic [OccWidth-1:0] occ;

  always_comb begin
    hit_any  = 1'b0;
    free_any = 1'b0;
    to_any   = 1'b0;
    lru_any  = 1'b0;
    hit_idx  = '0;
    free_idx = '0;
    to_first = '0;
    lru_idx  = '0;
    lru_age  = '0;
    age      = '0;
    occ      = '0;
    for (int i = Entries - 1; i >= 0; i--) begin
      hit_vec[i] = valid_q[i] && (tag_q[i] == hdr.tag);
      age        = now_i - last_q[i];
      to_vec[i]  = valid_q[i] && push_q[i] && (timeout_i != '0) && (age > timeout_i);
      if (hit_vec[i]) begin
        hit_any = 1'b1;
        hit_idx = IdxWidth'(i);
      end
      if (!valid_q[i]) begin
        free_any = 1'b1;
        free_idx = IdxWidth'(i);
      end
      if (to_vec[i]) begin
        to_any   = 1'b1;
        to_first = IdxWidth'(i);
      end
    end
    // LRU: the first push entry with the largest idle time (ascending, strictly greater wins).
    for (int i = 0; i < Entries; i++) begin
      age = now_i - last_q[i];
      if (valid_q[i] && push_q[i] && (!lru_any || (age > lru_age))) begin
        lru_any = 1'b1;
        lru_idx = IdxWidth'(i);
        lru_age = age;
      end
      occ = occ + OccWidth'(valid_q[i]);
    end
  end

  assign occupancy_o = occ;

  logic to_start;   // start a timeout eviction this cycle
  assign to_start = (state_q == StIdle) && to_any && !pending_q;

  // ---- metadata of two selected entries: the hit entry and the eviction victim ----
  // The victim: the latched timed-out entry while its header waits, the first timed-out entry
  // when a timeout eviction starts, else the LRU push entry. Computed ahead of the control block
  // (which reads the EVICT header built from it), so the combinational blocks have no cycle.
  logic [IdxWidth-1:0] ev_idx;
  logic [CW-1:0]   hit_cnt, hit_exp, ev_cnt, ev_exp;
  logic [SrcW-1:0] hit_src, ev_src;
  logic [OpW-1:0]  hit_op, ev_op;
  logic [TagW-1:0] ev_tag;

  assign ev_idx  = (state_q == StToHdr) ? to_idx_q : (to_start ? to_first : lru_idx);
  assign hit_cnt = cnt_q[hit_idx];
  assign hit_exp = exp_q[hit_idx];
  assign hit_src = src_q[hit_idx];
  assign hit_op  = op_q[hit_idx];
  assign ev_cnt  = cnt_q[ev_idx];
  assign ev_exp  = exp_q[ev_idx];
  assign ev_src  = src_q[ev_idx];
  assign ev_op   = op_q[ev_idx];
  assign ev_tag  = tag_q[ev_idx];

  logic [CW-1:0] sum_cnt;
  logic          hit_done;
  assign sum_cnt  = hit_cnt + hdr.count;
  assign hit_done = (sum_cnt == hit_exp);

  // ---- data path: stored row, ALU, new row ----
  logic [FlitWidth-1:0] old_row, new_row, alu_y;
  logic [RowWidth-1:0]  row;  // the row of the current data beat
  assign row     = RowWidth'({d_idx_q, d_beat_q[2:0]});
  assign old_row = data_q[row];

  hx_reduce_alu #(.Lanes(4)) u_alu (
    .op_i (d_op_q),
    .a_i  (old_row),
    .b_i  (in_flit_i),
    .y_o  (alu_y)
  );
  assign new_row = d_comb_q ? alu_y : in_flit_i;

  // ---- output header builders ----
  hx_red_pkg::red_hdr_t evict_hdr, result_hdr;
  always_comb begin
    evict_hdr           = '0;
    evict_hdr.kind      = hx_red_pkg::RedKindEvict;
    evict_hdr.op        = ev_op;
    evict_hdr.nflits    = 4'd8;
    evict_hdr.count     = ev_cnt;
    evict_hdr.expected  = ev_exp;
    evict_hdr.tag       = ev_tag;
    evict_hdr.src       = ev_src;
    evict_hdr.opaque    = (state_q == StIdle && !to_start) ? hdr.opaque : '0;
    result_hdr          = '0;
    result_hdr.kind     = hx_red_pkg::RedKindResult;
    result_hdr.nflits   = 4'd8;
    result_hdr.tag      = hdr.tag;
    result_hdr.opaque   = hdr.opaque;
    if (hit_any) begin
      result_hdr.op       = hit_op;
      result_hdr.count    = sum_cnt;
      result_hdr.expected = hit_exp;
      result_hdr.src      = hit_src;
    end else begin
      result_hdr.op       = hdr.op;
      result_hdr.count    = hdr.count;
      result_hdr.expected = hdr.expected;
      result_hdr.src      = hdr.src;
    end
  end

  // ---- control ----
  // What each beat of a data phase does, as {in, out, wr, old, comb} (see d_*_q above). Every
  // branch of the control block that starts a phase names one of these; one block applies it.
  localparam logic [4:0] PhStream  = 5'b11000;  // input flit to output (bypass, complete miss)
  localparam logic [4:0] PhStore   = 5'b10100;  // input flit into the entry (allocate)
  localparam logic [4:0] PhReduce  = 5'b10101;  // ALU(entry, input) into the entry
  localparam logic [4:0] PhResult  = 5'b11001;  // ALU(entry, input) to output (completes)
  localparam logic [4:0] PhEvict   = 5'b01010;  // entry to output (timeout eviction)
  localparam logic [4:0] PhReplace = 5'b11110;  // entry to output, input into the entry (LRU)
  logic ph_start;          // a data phase is set up this cycle
  logic [IdxWidth-1:0] ph_idx;
  logic [3:0] ph_num;
  logic [4:0] ph_kind;

  logic hdr_acc;           // the input header is taken this cycle
  logic data_fire;         // a data beat completes this cycle
  logic meta_we;           // (re)write the metadata of meta_idx
  logic [IdxWidth-1:0] meta_idx;
  logic meta_push;
  logic [CW-1:0] meta_cnt, meta_exp;
  logic [SrcW-1:0] meta_src;
  logic [OpW-1:0] meta_op;
  logic free_we;           // free free_sel
  logic [IdxWidth-1:0] free_sel;

  always_comb begin
    state_d    = state_q;
    to_idx_d   = to_idx_q;
    d_idx_d    = d_idx_q;
    d_beat_d   = d_beat_q;
    d_num_d    = d_num_q;
    d_in_d     = d_in_q;
    d_out_d    = d_out_q;
    d_wr_d     = d_wr_q;
    d_old_d    = d_old_q;
    d_comb_d   = d_comb_q;
    d_op_d     = d_op_q;
    in_ready_o  = 1'b0;
    out_valid_o = 1'b0;
    out_flit_o  = in_flit_i;
    hdr_acc     = 1'b0;
    data_fire   = 1'b0;
    meta_we     = 1'b0;
    meta_idx    = hit_any ? hit_idx : free_idx;
    meta_push   = 1'b0;
    meta_cnt    = '0;
    meta_exp    = hdr.expected;
    meta_src    = hdr.src;
    meta_op     = hdr.op;
    free_we     = 1'b0;
    free_sel    = hit_idx;
    ph_start    = 1'b0;
    ph_idx      = d_idx_q;
    ph_num      = 4'd8;
    ph_kind     = PhStream;

    unique case (state_q)
      StIdle: begin
        if (to_start) begin
          // Timeout eviction: offer the header now; the victim is latched if it is not taken.
          out_valid_o = 1'b1;
          out_flit_o  = evict_hdr;
          to_idx_d    = to_first;
          if (out_ready_i) begin
            free_we  = 1'b1;
            free_sel = to_first;
            state_d  = StData;
            ph_start = 1'b1;
            ph_idx   = to_first;
            ph_kind  = PhEvict;
          end else begin
            state_d = StToHdr;
          end
        end else if (is_pull_req) begin
          if (hit_any || free_any) begin
            in_ready_o = 1'b1;
            meta_we    = in_valid_i;
            meta_push  = 1'b0;
            meta_cnt   = '0;
          end else begin
            in_ready_o = !hdr.first_hop;   // first hop: stall; later hops: consume, no entry
          end
          hdr_acc = in_valid_i && in_ready_o;
        end else if ((is_pull_rsp || is_push_wr) && hit_any) begin
          // The first contribution to an entry (count 0: a pull entry) is stored as it is.
          ph_start = 1'b1;
          ph_idx   = hit_idx;
          d_op_d   = hit_op;
          if (hit_done) begin
            // Complete: RESULT streams out, the entry is freed.
            out_valid_o = in_valid_i;
            out_flit_o  = result_hdr;
            in_ready_o  = out_ready_i;
            free_we     = in_valid_i && out_ready_i;
            free_sel    = hit_idx;
            ph_kind     = (hit_cnt != '0) ? PhResult : PhStream;
          end else begin
            // Partial: reduce into the entry.
            in_ready_o = 1'b1;
            meta_we    = in_valid_i;
            meta_idx   = hit_idx;
            meta_push  = push_q[hit_idx];
            meta_cnt   = sum_cnt;
            meta_exp   = hit_exp;
            meta_src   = hit_src;
            meta_op    = hit_op;
            ph_kind    = (hit_cnt != '0) ? PhReduce : PhStore;
          end
          hdr_acc = in_valid_i && in_ready_o;
        end else if (is_push_wr && (hdr.count == hdr.expected)) begin
          // Push miss that is already complete: stream it out as RESULT.
          out_valid_o = in_valid_i;
          out_flit_o  = result_hdr;
          in_ready_o  = out_ready_i;
          ph_start = 1'b1;
          ph_kind  = PhStream;
          hdr_acc  = in_valid_i && in_ready_o;
        end else if (is_push_wr && free_any) begin
          // Push miss, free entry: allocate and store.
          in_ready_o = 1'b1;
          meta_we    = in_valid_i;
          meta_idx   = free_idx;
          meta_push  = 1'b1;
          meta_cnt   = hdr.count;
          ph_start = 1'b1;
          ph_idx   = free_idx;
          ph_kind  = PhStore;
          hdr_acc  = in_valid_i;
        end else if (is_push_wr && lru_any) begin
          // Push miss, full: evict the LRU push entry while the new data takes its place.
          out_valid_o = in_valid_i;
          out_flit_o  = evict_hdr;
          in_ready_o  = out_ready_i;
          meta_we     = in_valid_i && out_ready_i;
          meta_idx    = lru_idx;
          meta_push   = 1'b1;
          meta_cnt    = hdr.count;
          ph_start = 1'b1;
          ph_idx   = lru_idx;
          ph_kind  = PhReplace;
          hdr_acc  = in_valid_i && in_ready_o;
        end else begin
          // Bypass: a foreign or malformed packet, a pull response that misses, a push write
          // with every entry held by pull.
          out_valid_o = in_valid_i;
          out_flit_o  = in_flit_i;
          in_ready_o  = out_ready_i;
          ph_start = 1'b1;
          ph_num   = hdr.nflits;
          ph_kind  = PhStream;
          hdr_acc  = in_valid_i && in_ready_o;
        end
        // A packet with data flits continues in StData.
        if (!to_start && hdr_acc && !is_pull_req && (ph_num != 4'd0)) begin
          state_d = StData;
        end
      end

      StToHdr: begin
        out_valid_o = 1'b1;
        out_flit_o  = evict_hdr;
        if (out_ready_i) begin
          free_we  = 1'b1;
          free_sel = to_idx_q;
          state_d  = StData;
          ph_start = 1'b1;
          ph_idx   = to_idx_q;
          ph_kind  = PhEvict;
        end
      end

      StData: begin
        in_ready_o  = d_in_q && (!d_out_q || out_ready_i);
        out_valid_o = d_out_q && (!d_in_q || in_valid_i);
        out_flit_o  = d_old_q ? old_row : new_row;
        data_fire   = d_in_q ? (in_valid_i && in_ready_o) : out_ready_i;
        if (data_fire) begin
          d_beat_d = d_beat_q + 4'd1;
          if (d_beat_q == d_num_q - 4'd1) begin
            state_d = StIdle;
          end
        end
      end

      default: begin
        state_d = StIdle;
      end
    endcase
    if (ph_start) begin
      d_idx_d  = ph_idx;
      d_beat_d = 4'd0;
      d_num_d  = ph_num;
      {d_in_d, d_out_d, d_wr_d, d_old_d, d_comb_d} = ph_kind;
    end
  end

  assign pending_d = out_valid_o && !out_ready_i;

  // ---- metadata next state ----
  // One-hot masks of the freed and the (re)written entry; a write wins over a free.
  logic [Entries-1:0] free_mask, meta_mask;
  assign free_mask = free_we ? (Entries'(1) << free_sel) : '0;
  assign meta_mask = meta_we ? (Entries'(1) << meta_idx) : '0;
  assign valid_d   = (valid_q & ~free_mask) | meta_mask;
  assign push_d    = (push_q & ~meta_mask) | (meta_push ? meta_mask : '0);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= StIdle;
      valid_q   <= '0;
      pending_q <= 1'b0;
      d_beat_q  <= '0;
    end else begin
      state_q   <= state_d;
      valid_q   <= valid_d;
      pending_q <= pending_d;
      d_beat_q  <= d_beat_d;
    end
  end

  // Contents that are only read while valid (or while a packet that set them is in flight) need
  // no reset.
  always_ff @(posedge clk_i) begin
    push_q   <= push_d;
    to_idx_q <= to_idx_d;
    d_idx_q  <= d_idx_d;
    d_num_q  <= d_num_d;
    d_in_q   <= d_in_d;
    d_out_q  <= d_out_d;
    d_wr_q   <= d_wr_d;
    d_old_q  <= d_old_d;
    d_comb_q <= d_comb_d;
    d_op_q   <= d_op_d;
  end

  // The metadata of entry meta_idx.
  always_ff @(posedge clk_i) begin
    if (meta_we) begin
      tag_q[meta_idx]  <= hdr.tag;
      cnt_q[meta_idx]  <= meta_cnt;
      exp_q[meta_idx]  <= meta_exp;
      src_q[meta_idx]  <= meta_src;
      op_q[meta_idx]   <= meta_op;
      last_q[meta_idx] <= now_i;
    end
  end

  // The data rows: row d_idx_q*8 + d_beat_q is written with the new row on a data beat.
  always_ff @(posedge clk_i) begin
    if (data_fire && d_wr_q) data_q[row] <= new_row;
  end

`ifdef HX_ASSERTS_ON
  // ---------------------------------------------------------------------------------------------
  // Assertions. Per-entry checks sit in a generate loop (yosys needs one block per copy).
  // ---------------------------------------------------------------------------------------------
  logic owned_data;     // the header is a PULL_RSP or PUSH_WR this table reduces
  logic evict_offer;    // the output header in this cycle is an EVICT built from entry ev_idx
  logic result_offer;   // ... a RESULT
  logic leave;          // an entry's reduction leaves in this cycle (RESULT of a hit, timeout EVICT)
  logic [IdxWidth-1:0] leave_idx;
  assign owned_data   = is_pull_rsp || is_push_wr;
  assign evict_offer  = out_valid_o && (state_q == StToHdr
                                        || (state_q == StIdle && (to_start
                                            || (ph_start && ph_kind == PhReplace))));
  assign result_offer = out_valid_o && state_q == StIdle && !to_start && owned_data
                        && (hit_any ? hit_done : (is_push_wr && hdr.count == hdr.expected));
  assign leave        = out_valid_o && out_ready_i && state_q != StData
                        && (evict_offer ? ph_kind == PhEvict : (result_offer && hit_any));
  assign leave_idx    = evict_offer ? ev_idx : hit_idx;

  // The entries holding tag t.
  function automatic logic [Entries-1:0] hit_vec_of(logic [TagW-1:0] t);
    for (int i = 0; i < Entries; i++) hit_vec_of[i] = valid_q[i] && tag_q[i] == t;
  endfunction

  // What left in the previous cycle: the entry whose reduction completed or was evicted, and the
  // tag of an EVICT (the replacing write of an LRU eviction reuses the entry for another tag).
  logic                left_q, evicted_q;
  logic [IdxWidth-1:0] left_idx_q;
  logic [TagW-1:0]     evicted_tag_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      left_q        <= 1'b0;
      evicted_q     <= 1'b0;
      left_idx_q    <= '0;
      evicted_tag_q <= '0;
    end else begin
      left_q        <= leave;
      evicted_q     <= evict_offer && out_ready_i;
      left_idx_q    <= leave_idx;
      evicted_tag_q <= ev_tag;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      // Senders never bring more contributions than a line expects (the count of a packet plus
      // what its entry holds): a contract of the reduction protocol, not of this table.
      `HX_ASSUME(ContributionsWithinExpected, !(in_valid_i && state_q == StIdle && !to_start
                 && owned_data && (hit_any ? ({1'b0, hit_cnt} + {1'b0, hdr.count} > {1'b0, hit_exp})
                                           : (is_push_wr && hdr.count > hdr.expected))))
      // An entry is freed only while allocated, and never freed and rewritten at once.
      `HX_ASSERT(FreeOnlyAllocated, !free_we || valid_q[free_sel])
      `HX_ASSERT(FreeNotRewritten, !(free_we && meta_we && free_sel == meta_idx))
      // An entry whose RESULT or timeout EVICT left is free afterwards.
      `HX_ASSERT(FreedWhenLeft, !left_q || !valid_q[left_idx_q])
      // An EVICT carries a partial from a live push entry; a RESULT a complete reduction.
      `HX_ASSERT(EvictIsPartial, !evict_offer
                 || (valid_q[ev_idx] && push_q[ev_idx] && ev_cnt < ev_exp))
      `HX_ASSERT(ResultIsComplete, !result_offer || result_hdr.count == result_hdr.expected)
      // A timed-out victim whose EVICT header waits stays a live push entry until it is taken.
      `HX_ASSERT(TimeoutVictimLive, state_q != StToHdr || (valid_q[to_idx_q] && push_q[to_idx_q]))
      // After an EVICT no entry holds its tag: the evicted partial cannot also complete.
      `HX_ASSERT(EvictedNotCompleted, !evicted_q || !(hit_vec_of(evicted_tag_q) != '0))
    end
  end

  for (genvar i = 0; i < Entries; i++) begin : g_chk_entry
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (rst_ni) begin
        // The contribution count never exceeds the expected count; a push entry holds a partial
        // (a complete one has left as RESULT).
        `HX_ASSERT(CountWithinExpected, !valid_q[i] || cnt_q[i] <= exp_q[i])
        `HX_ASSERT(PushEntryPartial, !(valid_q[i] && push_q[i]) || cnt_q[i] < exp_q[i])
        // No two entries hold the same line (allocation happens only on a miss).
        `HX_ASSERT(TagsUnique, !valid_q[i] || $countones(hit_vec_of(tag_q[i])) == 1)
      end
    end
  end
`endif

endmodule
