"""The TD's desk: create a tournament from a competition's template, then run it (settings,
players and machines from CSV, steward PINs, display profiles, exports, a log import and what a
player needs). ``routes`` lists its endpoints and pages."""
