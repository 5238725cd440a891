"""The UK Pinball League's regional rules: a meeting's machine and league points, its games and
adjustments, region players and guests, and the season table."""
