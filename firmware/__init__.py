"""The companion application, in rooms (``firmware/README.md`` draws them and their arrows): the
commands at the top; ``table`` hosts a game; ``core`` is what a game plugs into; ``games`` holds
each game; ``journal``, ``calibration``, ``drawing``, ``web`` and ``bench`` as named."""
