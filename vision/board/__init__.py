"""The stepped board's reading: its levels' outlines, found on a picture of it empty, and each die's face, colour and level."""
