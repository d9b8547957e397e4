"""What people run: validation, scenario tests, rulesheets, replays, generated docs."""
