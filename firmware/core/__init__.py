"""What a game at the table plugs into, knowing no game: the protocol a game answers
(``table_game``), the events of the loop, the roll watcher, dice entered by hand, bot seats at the
buttons and the camera's status words."""
