"""Where the dice may lie: the tray's and the board's outlines, found or configured
(``dice-companion calibrate``), their files in the data folder and their views on the OLED."""
