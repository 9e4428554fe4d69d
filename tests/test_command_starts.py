"""The first seconds of a command: Ctrl-C while it loads the rules and the reader leaves as Ctrl-C
does later (status 130, no traceback), and the kill test's life explains itself with --help."""

from __future__ import annotations

import subprocess
import sys

from waiting import HANG_S

# The console script's own two lines, with Ctrl-C pressed (SIGINT sent to the process itself) just
# as the import of the games reaches Yacht's rules: never a matter of timing.
CTRL_C_WHILE_LOADING = """
import os, signal, sys

# Ctrl-C as at a terminal: a suite started in the background (nohup ... &) ignores SIGINT, and a
# child inherits that, so the key would be pressed on nothing
signal.signal(signal.SIGINT, signal.default_int_handler)

class CtrlC:
    def find_spec(self, name, path=None, target=None):
        if name == "engine.yacht":
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, CtrlC())
sys.argv = ["dice-companion", "demo", "--auto"]
from firmware.cli import main
sys.exit(main())
"""


def test_ctrl_c_while_a_command_loads_leaves_quietly():
    done = subprocess.run([sys.executable, "-c", CTRL_C_WHILE_LOADING], capture_output=True, text=True, timeout=HANG_S)
    assert "Traceback" not in done.stderr and "KeyboardInterrupt" not in done.stderr, done.stderr[-2000:]
    assert done.returncode == 130 and done.stdout == ""


def test_the_kill_tests_life_explains_itself():
    done = subprocess.run([sys.executable, "-m", "firmware.cli", "bench-durability-life", "--help"], capture_output=True,
                          text=True, timeout=HANG_S)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.stdout.startswith("usage: dice-companion bench-durability-life [-h] DATA SEED KIND [PLAYERS]")
    assert "bench-durability starts" in done.stdout, "it says who starts it"


def test_the_kill_tests_life_refuses_what_it_cannot_use_in_one_line():
    done = subprocess.run([sys.executable, "-m", "firmware.cli", "bench-durability-life", "/tmp", "x", "cant-stop"],
                          capture_output=True, text=True, timeout=HANG_S)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert "argument SEED: must be a whole number, got 'x'" in done.stderr.splitlines()[-1]
