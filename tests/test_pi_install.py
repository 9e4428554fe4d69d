"""firmware/pi/install.sh, run without a Pi: against a scratch root (DICE_COMPANION_ROOT), in a copy
of the clone, with stand-ins for apt-get, dpkg-query, raspi-config, systemctl, i2cdetect and the
venv's python3 first on PATH, each recording its calls. Nothing is installed, nothing downloaded."""

from __future__ import annotations

import getpass
import os
import shutil
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

import firmware.games  # noqa: F401  (lists the games the configuration is checked against)
from firmware.config import load_config

ROOT = Path(__file__).resolve().parent.parent
PI = ROOT / "firmware" / "pi"
ME = getpass.getuser()
STEPS = ["check", "i2c", "apt", "venv", "project", "config", "data", "unit", "service", "calibrate", "doctor", "start"]

# Each stand-in appends "name args..." to $STATE/calls and keeps what it changed under $STATE.
STAND_INS = {
    "apt-get": """
        [ "$1" = install ] && [ -n "${FAKE_APT_FAILS:-}" ] && { echo "E: Unable to locate package" >&2; exit 100; }
        if [ "$1" = install ]; then shift 3; printf '%s\\n' "$@" >>"$STATE/installed"; fi
    """,
    "dpkg-query": """
        grep -qx "${@: -1}" "$STATE/installed" 2>/dev/null || exit 1
        printf 'install ok installed'
    """,
    "dpkg": """
        [ "$1" = --print-architecture ] && echo "${FAKE_ARCH:-arm64}"
    """,
    "raspi-config": """
        case "$2" in get_i2c) cat "$STATE/i2c" 2>/dev/null || echo 1 ;; do_i2c) echo "$3" >"$STATE/i2c" ;; esac
    """,
    "systemctl": """
        case "$1" in
            is-enabled) [ -e "$STATE/enabled" ] ;;
            is-active) [ -e "$STATE/active" ] ;;
            enable) touch "$STATE/enabled" ;;
            start|restart) touch "$STATE/active" ;;
            stop) rm -f "$STATE/active" ;;
            disable) rm -f "$STATE/enabled" "$STATE/active" ;;
        esac
    """,
    "i2cdetect": """
        echo "     0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f"
        echo "30: -- -- -- -- -- -- -- -- -- -- -- -- ${FAKE_I2C:-3c} -- -- -- "
    """,
    # python3 -m venv makes a venv of stand-ins; anything else is the real Python (numpy's version)
    "python3": """
        if [ "$1" != -m ] || [ "$2" != venv ]; then exec "$REAL_PYTHON" "$@"; fi
        venv="${@: -1}"
        mkdir -p "$venv/bin"
        echo "include-system-site-packages = true" >"$venv/pyvenv.cfg"
        printf '#!/bin/sh\\nPYTHONPATH="$REPO" exec "$REAL_PYTHON" "$@"\\n' >"$venv/bin/python"
        printf '#!/bin/sh\\necho "pip $*" >>"$STATE/calls"\\n' >"$venv/bin/pip"
        printf '#!/bin/sh\\necho "dice-companion $*" >>"$STATE/calls"\\n[ "$1" = doctor ] && printf "%%b\\\\n" "${FAKE_DOCTOR_SAYS:-doctor: all well}"\\n'\\
'[ "$1" = doctor ] && exit "${FAKE_DOCTOR:-0}"\\nexit 0\\n' >"$venv/bin/dice-companion"
        chmod +x "$venv/bin/python" "$venv/bin/pip" "$venv/bin/dice-companion"
    """,
}


@dataclass
class Pi:
    """A scratch Pi: the clone, the root the installer writes under, and the stand-ins' record."""

    clone: Path
    root: Path
    state: Path
    bin: Path

    @property
    def config(self) -> Path:
        return self.root / "etc" / "dice-companion.toml"

    @property
    def unit(self) -> Path:
        return self.root / "etc" / "systemd" / "system" / "dice-companion.service"

    @property
    def data(self) -> Path:
        return self.root / "var" / "lib" / "dice-companion"

    @property
    def venv(self) -> Path:
        return self.clone / ".venv"

    def calls(self) -> list[str]:
        path = self.state / "calls"
        return path.read_text().splitlines() if path.exists() else []

    def install(self, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
        """Run the clone's installer with ``args``, no terminal on its input (nothing asked), as
        if started by sudo from this user; the calls recorded start afresh."""
        (self.state / "calls").unlink(missing_ok=True)
        environment = {
            **os.environ, "PATH": f"{self.bin}:{os.environ['PATH']}", "DICE_COMPANION_ROOT": str(self.root),
            "SUDO_USER": ME, "STATE": str(self.state), "REAL_PYTHON": sys.executable, "REPO": str(ROOT), **env,
        }
        return subprocess.run([str(self.clone / "firmware" / "pi" / "install.sh"), *args], env=environment,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)

    def git(self, *args: str) -> None:
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(self.clone), *args],
                       check=True, capture_output=True, timeout=30)


@pytest.fixture
def pi(tmp_path: Path) -> Pi:
    clone, bin_ = tmp_path / "dice-companion", tmp_path / "bin"
    (clone / "firmware" / "pi").mkdir(parents=True)
    for name in ("install.sh", "dice-companion.service", "dice-companion.toml"):
        shutil.copy2(PI / name, clone / "firmware" / "pi" / name)
    shutil.copy2(ROOT / "pyproject.toml", clone / "pyproject.toml")
    (clone / ".gitignore").write_text(".venv/\n")
    bin_.mkdir()
    for name, body in STAND_INS.items():
        script = bin_ / name
        script.write_text(f'#!/usr/bin/env bash\necho "{name} $*" >>"$STATE/calls"\n{body}')
        script.chmod(script.stat().st_mode | stat.S_IXUSR)
    (tmp_path / "state").mkdir()
    made = Pi(clone, tmp_path / "root", tmp_path / "state", bin_)
    made.git("init", "-q")
    made.git("add", ".")
    made.git("commit", "-q", "-m", "clone")
    return made


def ok(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def steps_listed(out: str) -> list[str]:
    return [line.split("] ", 1)[1].split(":", 1)[0] for line in out.splitlines() if line.startswith("[")]


def test_a_first_install_makes_every_call_in_order_and_says_each_step(pi):
    out = ok(pi.install("--players", "Ann,Bob"))
    assert steps_listed(out) == STEPS
    venv, config = pi.venv, pi.config
    assert [call for call in pi.calls() if not call.startswith("dpkg-query")] == [
        "raspi-config nonint get_i2c",
        "raspi-config nonint do_i2c 0",
        "apt-get update -q",
        "apt-get install -y -q git python3-venv python3-pip python3-numpy python3-picamera2 python3-lgpio i2c-tools",
        f"python3 -m venv --system-site-packages {venv}",
        "python3 -c import numpy; print(\"numpy==\" + numpy.__version__)",
        "dpkg --print-architecture",
        f"pip install -q -c {venv}/apt-numpy.txt {pi.clone}[fast]",
        "i2cdetect -y 1",
        "systemctl daemon-reload",
        "systemctl is-enabled --quiet dice-companion",
        "systemctl enable dice-companion",
        "systemctl is-active --quiet dice-companion",
        f"dice-companion doctor --config {config}",
        "systemctl start dice-companion",
    ]
    import numpy
    assert (venv / "apt-numpy.txt").read_text() == f"numpy=={numpy.__version__}\n"
    assert pi.data.is_dir() and pi.data.owner() == ME
    assert "doctor: all well" in out and out.rstrip().endswith("its log: journalctl -u dice-companion -f")


def test_the_unit_names_the_user_the_clone_and_the_venv(pi):
    ok(pi.install())
    unit = pi.unit.read_text()
    template = (PI / "dice-companion.service").read_text().splitlines()
    lines = unit.splitlines()
    assert f"User={ME}" in lines
    assert f"ExecStart={pi.venv}/bin/dice-companion run --config /etc/dice-companion.toml" in lines
    changed = {line for line in lines if line not in template}
    assert changed == {lines[0], f"User={ME}", f"ExecStart={pi.venv}/bin/dice-companion run --config /etc/dice-companion.toml"}
    assert lines[0].startswith("# Written by firmware/pi/install.sh")
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not on this machine: the unit was not verified")
    verify = subprocess.run(["systemd-analyze", "verify", str(pi.unit)], capture_output=True, text=True, timeout=60)
    # the machine may lack the Pi's groups and users; what must not appear is a complaint about the unit itself
    problems = [line for line in verify.stderr.splitlines() if "dice-companion.service" in line
                and "group" not in line.lower() and "user" not in line.lower()]
    assert problems == [], verify.stderr


def test_the_answers_go_into_a_configuration_the_companion_takes(pi):
    ok(pi.install("--yes", "--players", "Cleo, Dan,Eve", "--panel", "sh1106", "--camera", "usb", "--web", "home",
                  FAKE_I2C="3d"))
    text = pi.config.read_text()
    assert 'players = ["Cleo", "Dan", "Eve"]' in text and "# 1 to 4 names" in text  # the comments stay
    config = load_config(pi.config)
    assert config.game.names == ("Cleo", "Dan", "Eve")
    assert (config.display.type, config.display.i2c_address) == ("sh1106", 0x3D)
    assert config.camera.backend == "usb"
    assert (config.web.enabled, config.web.address) == (True, "0.0.0.0")
    assert str(config.data_dir) == "/var/lib/dice-companion"


def test_a_32_bit_system_installs_without_onnx_runtime_and_says_opencv_reads_the_dice(pi):
    out = ok(pi.install(FAKE_ARCH="armhf"))
    assert f"pip install -q -c {pi.venv}/apt-numpy.txt {pi.clone}" in pi.calls()
    assert "no ONNX Runtime for this armhf system: OpenCV runs the dice reader's nets" in out


def test_the_defaults_without_a_panel_on_the_bus_say_so(pi):
    out = ok(pi.install(FAKE_I2C="--"))
    config = load_config(pi.config)
    assert (config.game.names, config.display.type, config.display.i2c_address) == (("Ann", "Bob"), "ssd1306", 0x3C)
    assert (config.camera.backend, config.web.enabled) == ("picamera2", False)
    assert "no panel answered on I2C bus 1" in out


@pytest.mark.parametrize("option, value", [("--panel", "lcd"), ("--players", "Ann,Ann"), ("--players", "Bartholomew"),
                                           ("--camera", "ir"), ("--web", "yes"), ("--address", "3c")])
def test_an_answer_not_allowed_is_refused_before_anything_is_done(pi, option, value):
    result = pi.install(option, value)
    assert result.returncode == 1 and f"{option} {value}: allowed is" in result.stderr
    assert pi.calls() == [] and not pi.root.exists()


def test_an_existing_configuration_is_kept_and_checked(pi):
    pi.config.parent.mkdir(parents=True)
    pi.config.write_text('[game]\nplayers = ["Zed", "Yan"]\n# mine\n')
    out = ok(pi.install("--players", "Ann,Bob"))
    assert pi.config.read_text() == '[game]\nplayers = ["Zed", "Yan"]\n# mine\n'
    assert "kept as it is" in out and "checked" in out and "i2cdetect -y 1" not in pi.calls()


def test_a_configuration_the_companion_refuses_stops_at_its_step_naming_the_key(pi):
    pi.config.parent.mkdir(parents=True)
    pi.config.write_text('[display]\ntype = "lcd"\n')
    result = pi.install()
    assert result.returncode == 1
    assert "display.type = 'lcd'" in result.stderr and 'step "config" failed' in result.stderr
    assert not pi.unit.exists() and not any(call.startswith("systemctl") for call in pi.calls())


def test_a_second_run_changes_nothing(pi):
    ok(pi.install())
    files = {path: (path.read_bytes(), path.stat().st_mtime_ns) for path in (pi.config, pi.unit, pi.venv / "bin" / "pip")}
    out = ok(pi.install())
    # the service lets go of the devices while doctor opens them, and runs again after
    assert [call for call in pi.calls() if not call.startswith(("dpkg-query", "systemctl is-"))] == [
        "raspi-config nonint get_i2c",
        "systemctl stop dice-companion",
        f"dice-companion doctor --config {pi.config}",
        "systemctl start dice-companion",
    ]
    assert {path: (path.read_bytes(), path.stat().st_mtime_ns) for path in files} == files
    assert "already enabled" in out and "already installed from this checkout" in out


def test_after_a_pull_it_upgrades_and_restarts_keeping_the_configuration_and_the_data(pi):
    ok(pi.install())
    (pi.data / "journal.sqlite3").write_bytes(b"games")
    (pi.data / "tray.json").write_text("{}")
    config = pi.config.read_text()
    (pi.clone / "firmware" / "new.py").write_text("")
    pi.git("add", ".")
    pi.git("commit", "-q", "-m", "pulled")
    out = ok(pi.install())
    calls = pi.calls()
    assert f"pip install -q -c {pi.venv}/apt-numpy.txt {pi.clone}[fast]" in calls
    assert calls.index("systemctl stop dice-companion") < calls.index("systemctl start dice-companion")
    assert not any(call.startswith("apt-get") for call in calls)
    assert pi.config.read_text() == config and "running what is installed now" in out
    assert (pi.data / "journal.sqlite3").read_bytes() == b"games" and (pi.data / "tray.json").exists()


def test_uninstall_removes_the_service_and_the_venv_and_keeps_the_configuration_and_the_data(pi):
    ok(pi.install())
    (pi.data / "journal.sqlite3").write_bytes(b"games")
    out = ok(pi.install("--uninstall"))
    assert steps_listed(out) == ["check", "stop", "remove_unit", "remove_venv", "keep"]
    assert "systemctl disable --now dice-companion" in pi.calls() and "systemctl daemon-reload" in pi.calls()
    assert not pi.unit.exists() and not pi.venv.exists()
    assert pi.config.exists() and (pi.data / "journal.sqlite3").read_bytes() == b"games"
    again = ok(pi.install("--uninstall"))
    assert "not there" in again and "systemctl disable --now dice-companion" not in pi.calls()


def test_a_failed_apt_step_is_named_with_what_to_do_and_stops_the_install(pi):
    result = pi.install(FAKE_APT_FAILS="1")
    assert result.returncode == 1
    assert 'step "apt" failed (status 100)' in result.stderr and "sudo apt update" in result.stderr
    assert not pi.venv.exists() and not pi.config.exists()
    assert not any(call.startswith(("python3", "systemctl")) for call in pi.calls())


def test_doctor_finding_a_fault_fails_the_install_at_its_step_and_leaves_the_service_stopped(pi):
    ok(pi.install())
    result = pi.install(FAKE_DOCTOR="1")
    assert result.returncode == 1 and 'step "doctor" failed' in result.stderr and "README" in result.stderr
    assert pi.calls()[-1] == f"dice-companion doctor --config {pi.config}" and not (pi.state / "active").exists()


def test_a_tray_left_for_later_is_no_fault_of_the_install_but_any_other_fault_is(pi):
    tray = "configuration: ok; x\\ntray: not calibrated (no tray.json): run dice-companion calibrate"
    out = ok(pi.install("--no-calibrate", FAKE_DOCTOR="1", FAKE_DOCTOR_SAYS=tray))
    assert "tray: not calibrated" in out and "every part is ok but the tray" in out and (pi.state / "active").exists()
    result = pi.install("--no-calibrate", FAKE_DOCTOR="1", FAKE_DOCTOR_SAYS=tray + "\\ncamera: no frames: check the ribbon")
    assert result.returncode == 1 and 'step "doctor" failed' in result.stderr and not (pi.state / "active").exists()


def test_calibrating_is_done_while_the_service_is_stopped(pi):
    ok(pi.install())
    ok(pi.install("--calibrate"))
    calls = [call for call in pi.calls() if call.startswith(("systemctl stop", "systemctl start", "dice-companion"))]
    assert calls == [
        "systemctl stop dice-companion",
        f"dice-companion calibrate --config {pi.config}",
        f"dice-companion doctor --config {pi.config}",
        "systemctl start dice-companion",
    ]


def test_without_root_it_says_to_use_sudo_and_does_nothing(pi):
    fake_id = pi.bin / "id"
    fake_id.write_text('#!/bin/sh\n[ "$*" = -u ] && { echo 1000; exit 0; }\nexec /usr/bin/id "$@"\n')
    fake_id.chmod(0o755)
    result = pi.install(DICE_COMPANION_ROOT="")
    assert result.returncode == 1 and "run it with sudo" in result.stderr
    assert pi.calls() == []


@pytest.mark.parametrize("args, steps", [((), STEPS), (("--uninstall",), ["check", "stop", "remove_unit", "remove_venv", "keep"])])
def test_dry_run_lists_the_steps_and_does_nothing(pi, args, steps):
    out = ok(pi.install("--dry-run", *args, SUDO_USER=""))
    assert steps_listed(out) == steps and "nothing was done" in out
    assert pi.calls() == [] and not pi.root.exists() and not pi.venv.exists()


def test_the_installer_passes_shellcheck():
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not on this machine")
    result = subprocess.run(["shellcheck", str(PI / "install.sh")], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout


def test_at_a_terminal_it_asks_what_the_first_configuration_needs(pi):
    """The answers typed at the questions go into the configuration, as the options' would."""
    import pty
    main_end, terminal = pty.openpty()
    os.write(main_end, b"Cleo,Dan\nsh1106\nusb\nhome\nno\n")
    environment = {**os.environ, "PATH": f"{pi.bin}:{os.environ['PATH']}", "DICE_COMPANION_ROOT": str(pi.root),
                   "SUDO_USER": ME, "STATE": str(pi.state), "REAL_PYTHON": sys.executable, "REPO": str(ROOT)}
    try:
        result = subprocess.run([str(pi.clone / "firmware" / "pi" / "install.sh")], env=environment, stdin=terminal,
                                capture_output=True, text=True, timeout=60)
    finally:
        os.close(terminal)
        os.close(main_end)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "The players' names" in result.stderr and "Calibrate the tray now?" in result.stderr
    config = load_config(pi.config)
    assert (config.game.names, config.display.type, config.camera.backend, config.web.address) == (
        ("Cleo", "Dan"), "sh1106", "usb", "0.0.0.0")
    assert not any("calibrate" in call for call in pi.calls())


def test_calibrate_says_to_stop_the_service_when_the_camera_does_not_open(tmp_path, capsys, monkeypatch):
    """Run by hand while the service holds the camera, calibrate says in one line to stop it first."""
    from firmware.calibration import _steps
    from firmware.calibration.calibrate import calibrate
    from firmware.config import parse_config
    from hardware.camera import CameraError

    def busy():
        raise CameraError("cannot open /dev/video0: Device or resource busy")

    monkeypatch.setattr(_steps, "camera_opener", lambda camera: busy)
    config = parse_config({"camera": {"backend": "usb"}, "display": {"type": "dummy"}, "data": {"dir": str(tmp_path)}})
    assert calibrate(config) == 1
    err = capsys.readouterr().err
    assert "stop it first: sudo systemctl stop dice-companion" in err and len(err.strip().splitlines()) == 1
