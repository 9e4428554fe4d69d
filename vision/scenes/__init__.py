"""Synthetic scenes the reader is trained and measured on: trays of dice, the stepped board, and the clutter around them."""
