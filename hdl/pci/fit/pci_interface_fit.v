// SPDX-License-Identifier: GPL-2.0-or-later
// Measurement wrapper for the whole PCI interface (hdl/pci/fit/measure.sh):
// the PCI pins as real tristate pins, every pin registered (so nextpnr's
// Fmax is the interface's own register-to-register timing), a one-clock
// loop-back register back end, and the DMA and interrupt request inputs
// loaded from a shift register on one pin (the package has too few pins for
// them; they are registers of the wrapper, not of the interface). Every
// output of the interface is folded into one registered pin so no logic is
// optimised away. Not the board top.
module pci_interface_fit (
  input  wire        clk,
  input  wire        rst,
  inout  wire [31:0] ad,
  inout  wire [3:0]  cbe_n,
  inout  wire        par,
  inout  wire        frame_n, irdy_n,
  input  wire        idsel,
  inout  wire        trdy_n, devsel_n, stop_n, perr_n,
  output wire        serr_n,
  output reg         req_n,
  input  wire        gnt_n,
  output wire        inta_n,
  input  wire        int_pending,
  input  wire        sin,            // request inputs, shifted in
  output reg         fold);

  reg [31:0] ad_i; reg [3:0] cbe_i; reg par_i, frame_i, irdy_i, idsel_i;
  reg trdy_i, devsel_i, stop_i, perr_i, rst_q, intp_q, gnt_i;
  wire [31:0] ad_o; wire [3:0] cbe_o;
  wire ad_oe, cbe_oe, par_o, par_oe, frame_o, frame_oe, irdy_o, irdy_oe;
  wire trdy_o, trdy_oe, devsel_o, devsel_oe, stop_o, stop_oe, perr_o, perr_oe;
  wire serr_o, serr_oe, req_o, inta_oe;
  reg [31:0] ad_oq; reg [3:0] cbe_oq; reg ad_oeq, cbe_oeq, par_oq, par_oeq;
  reg frame_oq, frame_oeq, irdy_oq, irdy_oeq, trdy_oq, trdy_oeq, devsel_oq, devsel_oeq;
  reg stop_oq, stop_oeq, perr_oq, perr_oeq, serr_oeq, inta_oeq;

  wire reg_valid, reg_write; wire [11:2] reg_addr; wire [31:0] reg_wdata;
  reg reg_ready; reg [31:0] reg_rdata, store;
  wire bad_write, db_valid; wire [3:0] db_slot; wire [31:0] db_data;
  wire dma_ready, dma_wd_ready, dma_rd_valid, dma_done; wire [31:0] dma_rd_data;
  wire [1:0] dma_err, irq_err; wire irq_ready, irq_done, irq_sent;
  wire mem_enable, master_enable, msi_enable; wire [2:0] msi_mme;

  // request inputs: valid, write, addr 62, len 5, wd_data 32, irq valid, vector 2
  reg [103:0] sreg;

  always @(posedge clk) begin
    ad_i <= ad; cbe_i <= cbe_n; par_i <= par; frame_i <= frame_n; irdy_i <= irdy_n;
    idsel_i <= idsel; trdy_i <= trdy_n; devsel_i <= devsel_n; stop_i <= stop_n;
    perr_i <= perr_n; rst_q <= rst; intp_q <= int_pending; gnt_i <= gnt_n;
    ad_oq <= ad_o; ad_oeq <= ad_oe; cbe_oq <= cbe_o; cbe_oeq <= cbe_oe;
    par_oq <= par_o; par_oeq <= par_oe; frame_oq <= frame_o; frame_oeq <= frame_oe;
    irdy_oq <= irdy_o; irdy_oeq <= irdy_oe;
    trdy_oq <= trdy_o; trdy_oeq <= trdy_oe; devsel_oq <= devsel_o; devsel_oeq <= devsel_oe;
    stop_oq <= stop_o; stop_oeq <= stop_oe; perr_oq <= perr_o; perr_oeq <= perr_oe;
    serr_oeq <= serr_oe; req_n <= req_o; inta_oeq <= inta_oe;
    sreg <= {sreg[102:0], sin};
    reg_ready <= reg_valid & ~reg_ready;
    if (reg_valid & reg_write) store <= reg_wdata;
    reg_rdata <= store ^ {22'd0, reg_addr};
    fold <= ^{bad_write, db_valid, db_slot, db_data, dma_ready, dma_wd_ready, dma_rd_valid,
              dma_rd_data, dma_done, dma_err, irq_ready, irq_done, irq_err, irq_sent,
              mem_enable, master_enable, msi_enable, msi_mme};
  end

  assign ad = ad_oeq ? ad_oq : 32'bz;
  assign cbe_n = cbe_oeq ? cbe_oq : 4'bz;
  assign par = par_oeq ? par_oq : 1'bz;
  assign frame_n = frame_oeq ? frame_oq : 1'bz;
  assign irdy_n = irdy_oeq ? irdy_oq : 1'bz;
  assign trdy_n = trdy_oeq ? trdy_oq : 1'bz;
  assign devsel_n = devsel_oeq ? devsel_oq : 1'bz;
  assign stop_n = stop_oeq ? stop_oq : 1'bz;
  assign perr_n = perr_oeq ? perr_oq : 1'bz;
  assign serr_n = serr_oeq ? 1'b0 : 1'bz;
  assign inta_n = inta_oeq ? 1'b0 : 1'bz;

  pci_interface core (
    .clk(clk), .rst(rst_q),
    .ad_in(ad_i), .ad_out(ad_o), .ad_oe(ad_oe),
    .cbe_n_in(cbe_i), .cbe_n_out(cbe_o), .cbe_n_oe(cbe_oe),
    .par_in(par_i), .par_out(par_o), .par_oe(par_oe),
    .frame_n_in(frame_i), .frame_n_out(frame_o), .frame_n_oe(frame_oe),
    .irdy_n_in(irdy_i), .irdy_n_out(irdy_o), .irdy_n_oe(irdy_oe),
    .trdy_n_in(trdy_i), .trdy_n_out(trdy_o), .trdy_n_oe(trdy_oe),
    .devsel_n_in(devsel_i), .devsel_n_out(devsel_o), .devsel_n_oe(devsel_oe),
    .stop_n_in(stop_i), .stop_n_out(stop_o), .stop_n_oe(stop_oe),
    .perr_n_in(perr_i), .perr_n_out(perr_o), .perr_n_oe(perr_oe),
    .serr_n_out(serr_o), .serr_n_oe(serr_oe), .idsel_in(idsel_i),
    .req_n(req_o), .gnt_n(gnt_i), .inta_n_oe(inta_oe),
    .reg_valid(reg_valid), .reg_write(reg_write), .reg_addr(reg_addr),
    .reg_wdata(reg_wdata), .reg_ready(reg_ready), .reg_rdata(reg_rdata),
    .bad_write(bad_write), .db_valid(db_valid), .db_slot(db_slot), .db_data(db_data),
    .dma_valid(sreg[0]), .dma_ready(dma_ready), .dma_write(sreg[1]),
    .dma_addr(sreg[63:2]), .dma_len(sreg[68:64]), .dma_wd_data(sreg[100:69]),
    .dma_wd_ready(dma_wd_ready), .dma_rd_valid(dma_rd_valid), .dma_rd_data(dma_rd_data),
    .dma_done(dma_done), .dma_err(dma_err),
    .int_pending(intp_q), .irq_valid(sreg[101]), .irq_vector(sreg[103:102]),
    .irq_ready(irq_ready), .irq_done(irq_done), .irq_err(irq_err), .irq_sent(irq_sent),
    .mem_enable(mem_enable), .master_enable(master_enable), .msi_enable(msi_enable),
    .msi_mme(msi_mme));
endmodule
