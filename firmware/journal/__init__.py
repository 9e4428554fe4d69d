"""What was played: the journal (SQLite) that makes every move durable, its row checks, the
history of games and the dice statistics read from it."""
