"""Get Your Counters to the Top at the table: flow and buttons (``table``), screens, set-up options,
bots at the buttons, and the advisor's benchmark."""
