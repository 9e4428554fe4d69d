"""How long a test waits for an event before calling it a hang.

Never a speed: a test waits for what it waits for however busy the machine is (other jobs may share
the cores), and this bound only keeps a real hang from holding the suite for ever. Speeds are
measured by the benchmarks.
"""

HANG_S = 600.0
