"""The live side of every server process: the replica that tails the logs, each tournament's state
and views (``tournament``), merge patches, the hub that fans them out and the websocket endpoint
(architecture principles 3 to 6)."""
