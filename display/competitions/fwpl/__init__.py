"""The Flip Well Pinball League: league nights of group matches, the season table and the
playoffs (``scoring.fwpl``)."""
