"""Reading dice from camera images: pure functions over numpy arrays, no camera code."""
