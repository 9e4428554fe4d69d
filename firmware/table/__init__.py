"""The companion at the table: it hosts the game chosen on the set-up screen, the event loop
drives it on one thread, and ``start`` seats it at real or simulated devices (run, demo)."""
