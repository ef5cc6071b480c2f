-- SPDX-License-Identifier: GPL-2.0-or-later
-- Merges N_REQ requesters onto the one DMA port of the PCI initiator
-- (docs/card-internals.md section 3). Each requester port has the DMA port's
-- own shape. A granted requester owns the port from its request until the
-- request's dma_done: requests never overlap, so each requester's requests
-- complete in the order it made them, and the data strobes need no tags.
-- Grants rotate (the requester after the last owner first), so no
-- requester waits behind more than N_REQ - 1 others. One idle clock
-- between requests (the grant is registered).
--
-- Requester vectors are flattened: requester r uses bits r*W .. r*W+W-1.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity card_dma_arbiter is
  generic (N_REQ : positive := 2);
  port (
    clk : in std_logic;
    rst : in std_logic;
    -- requesters
    r_valid    : in  std_logic_vector(N_REQ - 1 downto 0);
    r_write    : in  std_logic_vector(N_REQ - 1 downto 0);
    r_addr     : in  std_logic_vector(N_REQ * 62 - 1 downto 0);
    r_len      : in  std_logic_vector(N_REQ * 5 - 1 downto 0);
    r_wd_data  : in  std_logic_vector(N_REQ * 32 - 1 downto 0);
    r_ready    : out std_logic_vector(N_REQ - 1 downto 0);
    r_wd_ready : out std_logic_vector(N_REQ - 1 downto 0);
    r_rd_valid : out std_logic_vector(N_REQ - 1 downto 0);
    r_done     : out std_logic_vector(N_REQ - 1 downto 0);
    rd_data    : out std_logic_vector(31 downto 0);   -- shared, with r_rd_valid
    err        : out std_logic_vector(1 downto 0);    -- shared, with r_done
    -- error report for the dma register block: with the failed request's
    -- dma_done, not registered (the register block registers it)
    err_valid  : out std_logic;
    err_req    : out std_logic_vector(1 downto 0);
    err_code   : out std_logic_vector(1 downto 0);
    -- the initiator
    dma_valid    : out std_logic;
    dma_ready    : in  std_logic;
    dma_write    : out std_logic;
    dma_addr     : out std_logic_vector(63 downto 2);
    dma_len      : out std_logic_vector(4 downto 0);
    dma_wd_data  : out std_logic_vector(31 downto 0);
    dma_wd_ready : in  std_logic;
    dma_rd_valid : in  std_logic;
    dma_rd_data  : in  std_logic_vector(31 downto 0);
    dma_done     : in  std_logic;
    dma_err      : in  std_logic_vector(1 downto 0));
end entity;

architecture rtl of card_dma_arbiter is
  signal owner   : natural range 0 to N_REQ - 1;
  signal busy    : std_logic;   -- owner's request is in flight (valid or data)
  signal sel     : std_logic_vector(N_REQ - 1 downto 0);
  signal gnt     : std_logic_vector(N_REQ - 1 downto 0);   -- busy and owner = r
begin
  assert N_REQ <= 4 report "card_dma_arbiter: err_req has 2 bits" severity failure;

  -- the pick is a natural plus a found flag, not an integer with -1 for
  -- none: GHDL synthesis keeps the integer's 32 bits and its sign compare
  -- (31 carry cells for N_REQ = 1)
  process (clk)
    variable pick  : natural range 0 to N_REQ - 1;
    variable found : boolean;
    variable r     : natural range 0 to N_REQ - 1;
  begin
    if rising_edge(clk) then
      if rst = '1' then
        owner <= 0;
        busy <= '0';
        gnt <= (others => '0');
      elsif busy = '0' then
        pick := 0;
        found := false;
        for k in 1 to N_REQ loop
          r := (owner + k) mod N_REQ;
          if not found and r_valid(r) = '1' then
            pick := r;
            found := true;
          end if;
        end loop;
        if found then
          owner <= pick;
          busy <= '1';
          for q in 0 to N_REQ - 1 loop
            if q = pick then
              gnt(q) <= '1';
            end if;
          end loop;
        end if;
      elsif dma_done = '1' then
        busy <= '0';
        gnt <= (others => '0');
      end if;
    end if;
  end process;

  g : for r in 0 to N_REQ - 1 generate
    sel(r) <= gnt(r);
    r_ready(r)    <= sel(r) and dma_ready;
    r_wd_ready(r) <= sel(r) and dma_wd_ready;
    r_rd_valid(r) <= sel(r) and dma_rd_valid;
    r_done(r)     <= sel(r) and dma_done;
  end generate;

  -- static slices per requester (GHDL synthesis and dynamic slices do not
  -- mix well); valid only until the initiator accepts: the owner drops it
  -- with ready. The request fields are an AND-OR by the one-hot grant, not
  -- a mux by owner: zero between requests, which the initiator never
  -- samples (the address and length at accept, the data with dma_wd_ready,
  -- both inside the grant). Flattened, ABC folds the AND into the
  -- requesters' and pci_interface's LUTs: card 6002 -> 5975 cells.
  mux : process (all)
    variable w : std_logic;
    variable a : std_logic_vector(61 downto 0);
    variable l : std_logic_vector(4 downto 0);
    variable d : std_logic_vector(31 downto 0);
  begin
    w := '0';
    a := (others => '0');
    l := (others => '0');
    d := (others => '0');
    dma_valid <= '0';
    for r in 0 to N_REQ - 1 loop
      w := w or (r_write(r) and gnt(r));
      a := a or (r_addr(r * 62 + 61 downto r * 62) and (61 downto 0 => gnt(r)));
      l := l or (r_len(r * 5 + 4 downto r * 5) and (4 downto 0 => gnt(r)));
      d := d or (r_wd_data(r * 32 + 31 downto r * 32) and (31 downto 0 => gnt(r)));
      if owner = r then
        dma_valid <= r_valid(r) and busy;
      end if;
    end loop;
    dma_write   <= w;
    dma_addr    <= a;
    dma_len     <= l;
    dma_wd_data <= d;
  end process;
  rd_data     <= dma_rd_data;
  err         <= dma_err;
  -- capture_regs takes the report into its own registers (errors,
  -- last_error): a copy here was four flip-flops and a clock of delay
  err_valid   <= busy when dma_done = '1' and dma_err /= "00" else '0';
  err_req     <= std_logic_vector(to_unsigned(owner, 2));
  err_code    <= dma_err;
end architecture;
