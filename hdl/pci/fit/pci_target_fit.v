// SPDX-License-Identifier: GPL-2.0-or-later
// Measurement wrapper for pci_target alone (hdl/pci/fit/measure.sh): the
// PCI pins as real tristate pins, every pin registered (so nextpnr's Fmax is
// the core's own register-to-register timing), and a one-clock loop-back
// register back end so no logic is optimised away. The configuration
// outputs are folded into one registered pin for the same reason. Not the
// board top: that integrates pci_target with clock_core later (issue 3).
module pci_target_fit (
  input  wire        clk,
  input  wire        rst,
  inout  wire [31:0] ad,
  input  wire [3:0]  cbe_n,
  inout  wire        par,
  input  wire        frame_n, irdy_n, idsel,
  inout  wire        trdy_n, devsel_n, stop_n, perr_n,
  output wire        serr_n,
  input  wire        int_pending,
  output reg         cfg_fold,
  output reg         bad_write_q,
  output reg         intx_q);

  reg [31:0] ad_i; reg [3:0] cbe_i; reg par_i, frame_i, irdy_i, idsel_i;
  reg trdy_i, devsel_i, stop_i, perr_i, rst_q, intp_q;
  wire [31:0] ad_o; wire ad_oe, par_o, par_oe, trdy_o, trdy_oe, devsel_o, devsel_oe;
  wire stop_o, stop_oe, perr_o, perr_oe, serr_o, serr_oe;
  reg [31:0] ad_oq; reg ad_oeq, par_oq, par_oeq, trdy_oq, trdy_oeq, devsel_oq, devsel_oeq;
  reg stop_oq, stop_oeq, perr_oq, perr_oeq, serr_oeq;

  wire reg_valid, reg_write, reg_ready_w; wire [11:2] reg_addr; wire [31:0] reg_wdata;
  reg reg_ready; reg [31:0] reg_rdata, store;
  wire mem_enable, master_enable, perr_resp, intx_assert, msi_enable, bad_write;
  wire [2:0] msi_mme; wire [63:0] msi_addr; wire [15:0] msi_data;

  always @(posedge clk) begin
    ad_i <= ad; cbe_i <= cbe_n; par_i <= par; frame_i <= frame_n; irdy_i <= irdy_n;
    idsel_i <= idsel; trdy_i <= trdy_n; devsel_i <= devsel_n; stop_i <= stop_n;
    perr_i <= perr_n; rst_q <= rst; intp_q <= int_pending;
    ad_oq <= ad_o; ad_oeq <= ad_oe; par_oq <= par_o; par_oeq <= par_oe;
    trdy_oq <= trdy_o; trdy_oeq <= trdy_oe; devsel_oq <= devsel_o; devsel_oeq <= devsel_oe;
    stop_oq <= stop_o; stop_oeq <= stop_oe; perr_oq <= perr_o; perr_oeq <= perr_oe;
    serr_oeq <= serr_oe;
    // back end: answers the clock after a request, a write-once store
    reg_ready <= reg_valid & ~reg_ready;
    if (reg_valid & reg_write) store <= reg_wdata;
    reg_rdata <= store ^ {22'd0, reg_addr};
    cfg_fold <= ^{mem_enable, master_enable, perr_resp, msi_enable, msi_mme, msi_addr, msi_data};
    bad_write_q <= bad_write;
    intx_q <= intx_assert;
  end

  assign ad = ad_oeq ? ad_oq : 32'bz;
  assign par = par_oeq ? par_oq : 1'bz;
  assign trdy_n = trdy_oeq ? trdy_oq : 1'bz;
  assign devsel_n = devsel_oeq ? devsel_oq : 1'bz;
  assign stop_n = stop_oeq ? stop_oq : 1'bz;
  assign perr_n = perr_oeq ? perr_oq : 1'bz;
  assign serr_n = serr_oeq ? 1'b0 : 1'bz;

  pci_target core (
    .clk(clk), .rst(rst_q),
    .ad_in(ad_i), .ad_out(ad_o), .ad_oe(ad_oe), .cbe_n_in(cbe_i),
    .par_in(par_i), .par_out(par_o), .par_oe(par_oe),
    .frame_n_in(frame_i), .irdy_n_in(irdy_i), .idsel_in(idsel_i),
    .trdy_n_in(trdy_i), .trdy_n_out(trdy_o), .trdy_n_oe(trdy_oe),
    .devsel_n_in(devsel_i), .devsel_n_out(devsel_o), .devsel_n_oe(devsel_oe),
    .stop_n_in(stop_i), .stop_n_out(stop_o), .stop_n_oe(stop_oe),
    .perr_n_in(perr_i), .perr_n_out(perr_o), .perr_n_oe(perr_oe),
    .serr_n_out(serr_o), .serr_n_oe(serr_oe),
    .reg_valid(reg_valid), .reg_write(reg_write), .reg_addr(reg_addr),
    .reg_wdata(reg_wdata), .reg_ready(reg_ready), .reg_rdata(reg_rdata),
    .mem_enable(mem_enable), .master_enable(master_enable), .perr_resp(perr_resp),
    .int_pending(intp_q), .intx_assert(intx_assert),
    .msi_enable(msi_enable), .msi_mme(msi_mme), .msi_addr(msi_addr), .msi_data(msi_data),
    .mst_data_perr(1'b0), .mst_rcv_tabort(1'b0), .mst_rcv_mabort(1'b0),
    .bad_write(bad_write));
endmodule
