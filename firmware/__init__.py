"""The companion application: configuration, event loop, screens, journal and command line."""
