"""The EPC 2009 main tournament (qualifying, quarter-finals, semi-finals, finals) and the boards of
the Classic and Kids tournaments, each wrapping the per-machine ``machines`` kind."""
