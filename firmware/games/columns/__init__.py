"""Columns at the table: flow and buttons (``table``), the board screens, bots at the buttons, and
the search bot's benchmark. No dice: the players tell the companion each placement."""
