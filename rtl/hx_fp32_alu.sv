// hx_fp32_alu: one 32-bit lane of the switch reduction ALU array (combinational).
//
// op_i (hx_red_pkg::RedOp*):
//   0 fp32 add   1 int32 add (wrapping)   2 fp32 min   3 fp32 max   4 int32 min   5 int32 max
//   (signed); 6 and 7 are not defined and return a_i unchanged.
//
// fp32 semantics (docs/reduction-unit.md, "fp32 semantics"):
//   - DAZ: a subnormal input is read as the zero of its sign.
//   - add: round to nearest, ties to even. A nonzero result below 2^-126 in magnitude is flushed
//     to the zero of its sign (FTZ; such results of an addition are exact, so tininess before and
//     after rounding agree). x + (-x) = +0, (-0) + (-0) = -0. Overflow gives the infinity of the
//     result's sign; inf + (-inf) is NaN.
//   - every NaN result (a NaN input, inf - inf) is the canonical NaN 0x7FC00000.
//   - min/max: a NaN input gives the canonical NaN; -0 < +0; otherwise the usual order. The value
//     returned is the input after DAZ, so min(+subnormal, +0) = +0 and max(-subnormal, -1) = -0.
//
// The adder is the textbook one: swap so that |big| >= |small|, align small with guard, round
// and sticky bits, add or subtract, normalise (one right shift or a leading-zero left shift),
// round, and flush. Three extra bits suffice for correct rounding: a left shift of more than one
// place happens only for exponent differences of 0 or 1, where no bit was shifted out.
module hx_fp32_alu (
  input  logic [2:0]  op_i,
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] y_o
);

  // ---- DAZ and classification ----
  logic [31:0] a_f, b_f;
  assign a_f = (a_i[30:23] == 8'd0) ? {a_i[31], 31'd0} : a_i;
  assign b_f = (b_i[30:23] == 8'd0) ? {b_i[31], 31'd0} : b_i;

  logic a_nan, b_nan, a_inf, b_inf, a_zero, b_zero;
  assign a_nan  = (a_f[30:23] == 8'hFF) && (a_f[22:0] != 23'd0);
  assign b_nan  = (b_f[30:23] == 8'hFF) && (b_f[22:0] != 23'd0);
  assign a_inf  = (a_f[30:23] == 8'hFF) && (a_f[22:0] == 23'd0);
  assign b_inf  = (b_f[30:23] == 8'hFF) && (b_f[22:0] == 23'd0);
  assign a_zero = (a_f[30:0] == 31'd0);
  assign b_zero = (b_f[30:0] == 31'd0);

  // ---- fp32 add ----
  logic        swap;
  logic [31:0] big, sml;
  logic [7:0]  e_big, e_sml, e_diff;
  logic [27:0] m_big, m_sml;         // {carry, hidden, 23 fraction bits, guard, round, sticky}
  logic [55:0] sml_wide;             // m_sml followed by the bits shifted out
  logic [27:0] m_sml_al;             // m_sml aligned to e_big, sticky in bit 0
  logic        eff_sub;
  logic [27:0] sum;
  logic [4:0]  lz;                   // leading zeros of sum[26:0]
  logic [26:0] norm;                 // hidden bit at 26, then 23 fraction bits, then G R S
  logic signed [9:0] e_norm;
  logic        rnd_up;
  logic [24:0] m_rnd;
  logic signed [9:0] e_fin;
  logic [31:0] add_y;

  always_comb begin
    swap   = (b_f[30:0] > a_f[30:0]);
    big    = swap ? b_f : a_f;
    sml    = swap ? a_f : b_f;
    e_big  = big[30:23];
    e_sml  = sml[30:23];
    e_diff = e_big - e_sml;
    m_big  = {1'b0, (e_big != 8'd0), big[22:0], 3'b000};
    m_sml  = {1'b0, (e_sml != 8'd0), sml[22:0], 3'b000};
    if (e_diff >= 8'd28) begin
      sml_wide = {28'd0, m_sml};
    end else begin
      sml_wide = {m_sml, 28'd0} >> e_diff;
    end
    m_sml_al = {sml_wide[55:29], sml_wide[28] | (sml_wide[27:0] != 28'd0)};
    eff_sub  = big[31] ^ sml[31];
    sum      = eff_sub ? (m_big - m_sml_al) : (m_big + m_sml_al);

    // Leading zeros of sum[26:0]: the last (highest) set bit wins.
    lz = 5'd0;
    for (int i = 0; i < 27; i++) begin
      if (sum[i]) begin
        lz = 5'(26 - i);
      end
    end

    if (sum[27]) begin
      norm   = {sum[27:2], sum[1] | sum[0]};
      e_norm = $signed({2'b00, e_big}) + 10'sd1;
    end else begin
      norm   = sum[26:0] << lz;
      e_norm = $signed({2'b00, e_big}) - $signed({5'd0, lz});
    end

    rnd_up = norm[2] & (norm[1] | norm[0] | norm[3]);
    m_rnd  = {1'b0, norm[26:3]} + {24'd0, rnd_up};
    e_fin  = m_rnd[24] ? (e_norm + 10'sd1) : e_norm;

    if (a_nan || b_nan || (a_inf && b_inf && (a_f[31] != b_f[31]))) begin
      add_y = hx_red_pkg::RedFp32CanonNan;
    end else if (a_inf) begin
      add_y = a_f;
    end else if (b_inf) begin
      add_y = b_f;
    end else if (a_zero && b_zero) begin
      add_y = {a_f[31] & b_f[31], 31'd0};
    end else if (sum == 28'd0) begin
      add_y = 32'd0;                                   // exact cancellation: +0
    end else if (e_norm <= 10'sd0) begin
      add_y = {big[31], 31'd0};                        // FTZ (exact, so before rounding)
    end else if (e_fin >= 10'sd255) begin
      add_y = {big[31], 8'hFF, 23'd0};                 // overflow
    end else begin
      // After a rounding carry m_rnd is 1.0 x 2 and m_rnd[23:1] is zero.
      add_y = {big[31], e_fin[7:0], m_rnd[24] ? m_rnd[23:1] : m_rnd[22:0]};
    end
  end

  // ---- fp32 min / max: order keys (monotonic in the value, -0 below +0) ----
  logic [31:0] key_a, key_b;
  logic        f_a_lt_b;
  assign key_a    = a_f[31] ? ~a_f : {1'b1, a_f[30:0]};
  assign key_b    = b_f[31] ? ~b_f : {1'b1, b_f[30:0]};
  assign f_a_lt_b = key_a < key_b;

  logic i_a_lt_b;
  assign i_a_lt_b = $signed(a_i) < $signed(b_i);

  always_comb begin
    unique case (op_i)
      hx_red_pkg::RedOpFAdd: y_o = add_y;
      hx_red_pkg::RedOpIAdd: y_o = a_i + b_i;
      hx_red_pkg::RedOpFMin: y_o = (a_nan || b_nan) ? hx_red_pkg::RedFp32CanonNan : (f_a_lt_b ? a_f : b_f);
      hx_red_pkg::RedOpFMax: y_o = (a_nan || b_nan) ? hx_red_pkg::RedFp32CanonNan : (f_a_lt_b ? b_f : a_f);
      hx_red_pkg::RedOpIMin: y_o = i_a_lt_b ? a_i : b_i;
      hx_red_pkg::RedOpIMax: y_o = i_a_lt_b ? b_i : a_i;
      default:           y_o = a_i;
    endcase
  end

endmodule
