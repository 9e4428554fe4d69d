"""The path a camera frame takes to a reading: the candidates, the classifier, the tray's outline, the table's own last layer, the settled throw."""
