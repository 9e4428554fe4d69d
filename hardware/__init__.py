"""One small interface per device (camera, buttons, display), with real and simulated backends."""
