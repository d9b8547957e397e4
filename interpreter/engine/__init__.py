"""One game: the table, the state machine, players and the events they see."""
