// SPDX-License-Identifier: GPL-2.0-or-later
//
// Simulation top: the card without its PCI interface (GHDL's Verilog of
// hdl/card/card_core.vhd, the entity synpcix_card puts behind pci_interface)
// plus the flops that stand for the PCI side: the register-port master,
// the doorbell strobe of pci_target, the DMA responder's outputs (the
// initiator's side of the DMA port) and the reset flops.
//
// Why the flops are here and not in C++: Verilator 5 re-evaluates all logic
// fed combinationally by top-level inputs on every eval (its "ico" region).
// The core's register decode hangs off reg_addr/reg_wdata, so with those as
// top-level inputs every clock edge of either domain recomputed the whole
// decode (56 % of the run time, measured with perf). Driving them from flops
// inside the model, as a real master does, removes that cost. The same
// holds for the DMA port and the doorbell strobe: C++ sets the value for
// the next bus clock (the *_n inputs), the flops here take it at the edge.
//
// Master protocol, as clock_core defines it: reg_valid with write/addr/wdata
// stable until reg_ready pulses for one bus clock; the next access may start
// the cycle after. The C++ side raises m_req with the access; the flops take
// it at the next bus edge. On the edge after reg_ready they take the next
// request (or idle), and reg_valid is masked while reg_ready is high, so the
// core never sees a finished access as a new one.
//
// The register split (0x000..0x1FF clock core, 0x200..0x7FF capture unit)
// is card_core's own, as on the card. The doorbell window 0x800..0xFFF
// never reaches the register port: card_sim.cpp turns writes there into the doorbell strobe (db_req) and answers reads
// with 0, as pci_target does.
//
// Doorbell strobe: db_req is raised by C++ for the bus clock in which the
// write's data phase completes; the flop makes db_valid high in the clock
// after that edge, i.e. pci_target's DB_LATENCY = 1 (docs/pci.md).
//
// pps_in and event_in go straight to the core: they are asynchronous and
// meet the core's own synchronisers, and a flop here would add a clock of
// capture latency.
module card_top (
    input         tb_clk,
    input         bus_clk,
    input         rst,        // both domains, synchronised below
    input         m_req,
    input         m_write,
    input  [9:0]  m_addr,     // word address (byte offset >> 2), < 0x800 bytes
    input  [31:0] m_wdata,
    output        reg_ready,
    output [31:0] reg_rdata,
    input         db_req,
    input  [3:0]  db_slot_n,
    input  [31:0] db_data_n,
    output        dma_valid,
    output        dma_write,
    output [61:0] dma_addr,   // word address (byte address >> 2)
    output [4:0]  dma_len,
    output [31:0] dma_wd_data,
    input         dma_ready_n,
    input         dma_wd_ready_n,
    input         dma_rd_valid_n,
    input  [31:0] dma_rd_data_n,
    input         dma_done_n,
    input  [1:0]  dma_err_n,
    output [3:0]  irq_raise,
    output [3:0]  irq_pending,
    output        irq_intx,
    input         pps_in,
    input  [1:0]  event_in,
    output        perout,
    output        pps_locked,
    output [63:0] tb_time_ns);  // the time the capture unit latches

  reg        bus_rst = 1'b1, tb_rst = 1'b1;
  reg        m_valid_q = 1'b0, m_write_q = 1'b0;
  reg [9:0]  m_addr_q = 10'd0;
  reg [31:0] m_wdata_q = 32'd0;
  reg        db_valid_q = 1'b0;
  reg [3:0]  db_slot_q = 4'd0;
  reg [31:0] db_data_q = 32'd0;
  reg        dma_ready_q = 1'b0, dma_wd_ready_q = 1'b0, dma_rd_valid_q = 1'b0;
  reg        dma_done_q = 1'b0;
  reg [31:0] dma_rd_data_q = 32'd0;
  reg [1:0]  dma_err_q = 2'd0;

  always @(posedge bus_clk) begin
    bus_rst <= rst;
    if (!m_valid_q || reg_ready) begin
      m_valid_q <= m_req;
      m_write_q <= m_write;
      m_addr_q  <= m_addr;
      m_wdata_q <= m_wdata;
    end
    db_valid_q     <= db_req;
    db_slot_q      <= db_slot_n;
    db_data_q      <= db_data_n;
    dma_ready_q    <= dma_ready_n;
    dma_wd_ready_q <= dma_wd_ready_n;
    dma_rd_valid_q <= dma_rd_valid_n;
    dma_rd_data_q  <= dma_rd_data_n;
    dma_done_q     <= dma_done_n;
    dma_err_q      <= dma_err_n;
  end

  always @(posedge tb_clk)
    tb_rst <= rst;

  wire        valid = m_valid_q & ~reg_ready;

  card_core core (
    .bus_clk(bus_clk), .bus_rst(bus_rst), .tb_clk(tb_clk), .tb_rst(tb_rst),
    .reg_valid(valid), .reg_ready(reg_ready), .reg_rdata(reg_rdata),
    .reg_write(m_write_q), .reg_addr(m_addr_q), .reg_wdata(m_wdata_q),
    .db_valid(db_valid_q), .db_slot(db_slot_q), .db_data(db_data_q),
    .dma_valid(dma_valid), .dma_ready(dma_ready_q), .dma_write(dma_write),
    .dma_addr(dma_addr), .dma_len(dma_len), .dma_wd_data(dma_wd_data),
    .dma_wd_ready(dma_wd_ready_q), .dma_rd_valid(dma_rd_valid_q),
    .dma_rd_data(dma_rd_data_q), .dma_done(dma_done_q), .dma_err(dma_err_q),
    .irq_raise(irq_raise), .irq_pending(irq_pending), .irq_intx(irq_intx),
    .pps_in(pps_in), .event_in(event_in),
    .perout(perout), .pps_locked(pps_locked), .tb_time_ns(tb_time_ns));
endmodule
