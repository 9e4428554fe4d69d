"""How things are drawn: the 128x64 OLED's kit and the screens every game shares, its tiny font,
the SVG kit each game's board on the web page is drawn with, and the words beside it (facts and
moves)."""
