"""The review of a game after it (or while it is played): every decision a player made against the
advisor's, graded as chess engines grade moves, for ``history --review N`` and the page's
``/games/N/review``. Each game's own reviewer (``firmware/games/<game>/review.py``, found in the
catalogue) values the decisions; here they are replayed from the journal, graded, totalled,
said in words and drawn."""
