"""The EPC 2009 rules (European Pinball Championship 2009): the main tournament's qualifying,
quarter-finals, semi-finals and finals, the Classic and the Kids tournaments, and the Country
Competition (``scoring.epc.country``)."""
