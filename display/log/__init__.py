"""The log: one Redis Stream per tournament, the only truth (architecture principle 1). The store's
compare-and-append, the writer that owns the write path, the hash chain's checks, the high-water
file and the store-regression guard, restore and verify."""
