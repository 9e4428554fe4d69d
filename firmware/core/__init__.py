"""What a game at the table plugs into, knowing no game: the protocol a game answers
(``table_game``), the catalogue where the games are found by kind, what a game's set-up is (who
plays which game by which options), the events of the loop, the roll watcher, dice entered by
hand, bot seats at the buttons and the camera's status words."""
