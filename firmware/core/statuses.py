"""The footer messages bots at the buttons act on: those that mean the companion is waiting on
the camera (not to be pressed through), and a refused save (the same press again)."""

READING = "reading dice..."
CAMERA_TROUBLE = "camera:SELECT=by hand"


NOT_SAVED = "NOT SAVED"
"""The start of the status when the journal refused an event: it did not happen; try again."""


def waiting_on_camera(status: str) -> bool:
    """Whether a screen's status says it waits on the camera (others, such as "undone: 6+10", do not)."""
    return status in (READING, CAMERA_TROUBLE)
