"""Get Your Counters to the Top at the table: flow and buttons (``table``), screens and the words
they give each decision (``labels``), set-up options, bots at the buttons, and the advisor's benchmark."""
