"""Backglass server: HTTP API, websocket hub, Redis log store and the replica that feeds them."""
