// SPDX-License-Identifier: GPL-2.0-or-later
// Measurement wrapper for capture_unit alone (hdl/core/fit/measure.sh):
// every port of the unit through a register on its own clock, so nextpnr's
// Fmax per clock is the unit's own register-to-register timing and nothing
// is optimised away. time_ns comes from a counter on tb_clk (the clock
// core's timebase stands in for it: +8 ns per clock); the outputs are folded
// into two registered pins, one per clock domain that drives them. Not the
// board top.
module capture_unit_fit (
  input  wire        bus_clk,
  input  wire        tb_clk,
  input  wire        bus_rst,
  input  wire        tb_rst,
  input  wire        reg_valid, reg_write,
  input  wire [11:2] reg_addr,
  input  wire [31:0] reg_wdata,
  input  wire        db_valid,
  input  wire [3:0]  db_slot,
  input  wire [31:0] db_data,
  input  wire        dma_ready, dma_wd_ready, dma_rd_valid, dma_done,
  input  wire [31:0] dma_rd_data,
  input  wire [1:0]  dma_err,
  output reg         fold_a,
  output reg         fold_b);

  reg brst_q, trst_q, rv_q, rw_q, dbv_q, dr_q, dwr_q, drv_q, dd_q;
  reg [11:2] ra_q; reg [31:0] rwd_q, dbd_q, drd_q; reg [3:0] dbs_q; reg [1:0] de_q;
  reg [63:0] tns;
  wire reg_ready, dma_valid, dma_write;
  wire [31:0] reg_rdata, dma_wd_data; wire [63:2] dma_addr; wire [4:0] dma_len;
  wire [3:0] irq_raise, irq_pending; wire irq_intx;

  always @(posedge tb_clk) begin
    trst_q <= tb_rst;
    if (trst_q) tns <= 64'd0; else tns <= tns + 64'd8;
  end

  always @(posedge bus_clk) begin
    brst_q <= bus_rst; rv_q <= reg_valid; rw_q <= reg_write; ra_q <= reg_addr;
    rwd_q <= reg_wdata; dbv_q <= db_valid; dbs_q <= db_slot; dbd_q <= db_data;
    dr_q <= dma_ready; dwr_q <= dma_wd_ready; drv_q <= dma_rd_valid; dd_q <= dma_done;
    drd_q <= dma_rd_data; de_q <= dma_err;
    fold_a <= ^{reg_ready, reg_rdata, dma_valid, dma_write, dma_addr[31:2]};
    fold_b <= ^{dma_addr[63:32], dma_len, dma_wd_data, irq_raise, irq_pending, irq_intx};
  end

  capture_unit core (
    .bus_clk(bus_clk), .bus_rst(brst_q), .tb_clk(tb_clk), .tb_rst(trst_q),
    .time_ns(tns),
    .reg_valid(rv_q), .reg_write(rw_q), .reg_addr(ra_q), .reg_wdata(rwd_q),
    .reg_ready(reg_ready), .reg_rdata(reg_rdata),
    .db_valid(dbv_q), .db_slot(dbs_q), .db_data(dbd_q),
    .dma_valid(dma_valid), .dma_ready(dr_q), .dma_write(dma_write),
    .dma_addr(dma_addr), .dma_len(dma_len), .dma_wd_data(dma_wd_data),
    .dma_wd_ready(dwr_q), .dma_rd_valid(drv_q), .dma_rd_data(drd_q),
    .dma_done(dd_q), .dma_err(de_q),
    .irq_raise(irq_raise), .irq_pending(irq_pending), .irq_intx(irq_intx));
endmodule
