"""The read-only web page: the live board, the history and the dice statistics, read from the journal.

:mod:`firmware.web._app` has the routes, :mod:`firmware.web._views` what they show, :mod:`firmware.web.server`
serves them; each game draws its own board (``firmware/games/<game>/web.py``).
"""
