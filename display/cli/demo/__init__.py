"""``backglass demo``: the group (``commands``) and what every competition's demo shares
(``common``)."""
