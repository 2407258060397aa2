"""The whole hand of three: the table, what one seat sees, records, self-play, settlement, positions."""
