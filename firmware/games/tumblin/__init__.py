"""Tumblin' Dice at the table: flicks told with the buttons, the board read by the camera and checked by the players."""
