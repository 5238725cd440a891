"""Per-machine competitions and the hall around them: every entry is one score by one player on one
machine (``scoring.FORMATS``), with machine queues, machine status, corrections and voids. The
EPC qualifying runs here as it is; the UKPL meeting and the EPC main event, Classic and Kids
tournaments wrap this kind."""
