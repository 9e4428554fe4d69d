"""Can't Stop at the table: flow and buttons (``table``), screens, set-up options, bots at the buttons."""
