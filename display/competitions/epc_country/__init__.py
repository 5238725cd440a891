"""The EPC 2009 Country Competition: seeded teams in groups, team matches and the 4-ball game,
then a six-team final (``scoring.epc.country``)."""
