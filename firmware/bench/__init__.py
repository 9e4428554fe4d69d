"""Long runs that print figures: the kill test, the bots' benchmarks of each game, the statistics
they report with and their progress bars."""
