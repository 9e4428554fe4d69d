"""Measuring the reader: photo sets read and scored, the ceiling and its causes, the reviewed label corrections, the table's tuning measured, annotated pictures."""
