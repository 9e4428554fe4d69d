"""Yacht at the table: flow and buttons (``table``), screens, the optimal advisor's stored table,
bots at the buttons, the advisor's benchmark, and the scorecard on the web page."""
