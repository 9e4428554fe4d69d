"""The footer messages that mean the companion is waiting on the camera, which bots at the
buttons must not press through."""

READING = "reading dice..."
CAMERA_TROUBLE = "camera:SELECT=by hand"


def waiting_on_camera(status: str) -> bool:
    """Whether a screen's status says it waits on the camera (others, such as "undone: 6+10", do not)."""
    return status in (READING, CAMERA_TROUBLE)
