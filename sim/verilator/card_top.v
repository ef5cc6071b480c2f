// SPDX-License-Identifier: GPL-2.0-or-later
//
// Simulation top: the clock core (GHDL's Verilog of hdl/core/clock_core.vhd)
// plus the output flops of the register-port master and the reset flops.
//
// Why the flops are here and not in C++: Verilator 5 re-evaluates all logic
// fed combinationally by top-level inputs on every eval (its "ico" region).
// The core's register decode hangs off reg_addr/reg_wdata, so with those as
// top-level inputs every clock edge of either domain recomputed the whole
// decode (56 % of the run time, measured with perf). Driving them from flops
// inside the model, as a real master does, removes that cost.
//
// Master protocol, as clock_core defines it: reg_valid with write/addr/wdata
// stable until reg_ready pulses for one bus clock; the next access may start
// the cycle after. The C++ side raises m_req with the access; the flops take
// it at the next bus edge. On the edge after reg_ready they take the next
// request (or idle), and reg_valid is masked while reg_ready is high, so the
// core never sees a finished access as a new one.
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
    input  [9:0]  m_addr,     // word address (byte offset >> 2)
    input  [31:0] m_wdata,
    output        reg_ready,
    output [31:0] reg_rdata,
    input         pps_in,
    input  [1:0]  event_in,
    output        perout,
    output        pps_locked);

  reg        bus_rst = 1'b1, tb_rst = 1'b1;
  reg        m_valid_q = 1'b0, m_write_q = 1'b0;
  reg [9:0]  m_addr_q = 10'd0;
  reg [31:0] m_wdata_q = 32'd0;

  always @(posedge bus_clk) begin
    bus_rst <= rst;
    if (!m_valid_q || reg_ready) begin
      m_valid_q <= m_req;
      m_write_q <= m_write;
      m_addr_q  <= m_addr;
      m_wdata_q <= m_wdata;
    end
  end

  always @(posedge tb_clk)
    tb_rst <= rst;

  clock_core core (
    .bus_clk(bus_clk), .bus_rst(bus_rst),
    .reg_valid(m_valid_q & ~reg_ready), .reg_write(m_write_q),
    .reg_addr(m_addr_q), .reg_wdata(m_wdata_q),
    .reg_ready(reg_ready), .reg_rdata(reg_rdata),
    .tb_clk(tb_clk), .tb_rst(tb_rst),
    .pps_in(pps_in), .event_in(event_in),
    .perout(perout), .pps_locked(pps_locked),
    .tb_time_ns());  // the MSI capture unit will take it; unused here
endmodule
