"""Training of the reader's two nets (needs PyTorch: ``pip install '.[train]'``); not used at run time."""
