#!/usr/bin/env bash
# Installs Dice Companion on a Raspberry Pi from this clone, as a systemd service:
#   sudo firmware/pi/install.sh             asks what the first configuration needs, then installs
#   sudo firmware/pi/install.sh --yes ...   unattended (see --help for the answers as options)
#   firmware/pi/install.sh --dry-run        prints the steps and does nothing (any user)
#   sudo firmware/pi/install.sh --uninstall removes the service and the venv; keeps the configuration and the data
# Run again (after a `git pull`, say) it upgrades what changed, restarts the service if anything did,
# and leaves the rest as it is. DICE_COMPANION_ROOT (tests only) puts /etc and /var/lib under a
# scratch folder; the commands it runs (apt-get, raspi-config, systemctl, ...) are the ones on PATH.
set -Eeuo pipefail

SERVICE=dice-companion
CONFIG=/etc/dice-companion.toml
DEFAULT_DATA=/var/lib/dice-companion
APT_PACKAGES=(git python3-venv python3-pip python3-numpy python3-picamera2 python3-lgpio i2c-tools)
ROOT_PREFIX="${DICE_COMPANION_ROOT:-}"
ROOT_PREFIX="${ROOT_PREFIX%/}"
CLONE="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
VENV="$CLONE/.venv"
CONFIG_FILE="$ROOT_PREFIX$CONFIG"
UNIT_FILE="$ROOT_PREFIX/etc/systemd/system/$SERVICE.service"
UNIT_TEMPLATE="$CLONE/firmware/pi/dice-companion.service"
CONFIG_TEMPLATE="$CLONE/firmware/pi/dice-companion.toml"
STAMP="$VENV/.dice-companion-installed"   # what the venv was last installed from (commit and changes)
ME="firmware/pi/install.sh"

usage() {
    cat <<EOF
usage: sudo $ME [--dry-run] [--yes] [--user NAME] [--players A,B] [--panel ssd1306|sh1106]
                [--address 0x3c] [--camera picamera2|usb] [--web home|off] [--calibrate|--no-calibrate]
       sudo $ME --uninstall [--dry-run]

Installs Dice Companion from this clone ($CLONE) as the service $SERVICE, run by the user
who ran sudo. Asks what a first $CONFIG needs (where none is there yet) unless --yes or
no terminal: then the options below are taken, and the defaults for the others.
  --dry-run        print the steps and do nothing (no root needed)
  --uninstall      remove the service and the venv; keep $CONFIG and the data folder
  --yes            ask nothing (unattended): the options given, the defaults for the rest
  --user NAME      the user the service runs as (default: the user who ran sudo)
  --players A,B    1 to 4 names of up to 8 characters (default: Ann,Bob)
  --panel P        ssd1306 (the 0.96" OLED, the default) or sh1106 (the 1.3" one)
  --address A      the panel's I2C address (default: the one i2cdetect finds, else 0x3c)
  --camera C       picamera2 (the Pi camera, the default) or usb (a USB webcam)
  --web W          home (the page open to the home network) or off (the default)
  --calibrate      calibrate the tray at the end (stops the service while it holds the camera)
  --no-calibrate   do not offer it
EOF
}

say() { printf '%s\n' "$*"; }
die() {  # stop, naming the step under way (if any) and what to do
    printf '%s: %s%s\n' "$ME" "${current:+step \"$current\": }" "$*" >&2
    exit 1
}

# ---- options --------------------------------------------------------------------------------

current="" dry_run=false uninstall=false unattended=false calibrate_choice="" user="${SUDO_USER:-}"
players="" panel="" address="" camera="" web=""
while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) dry_run=true ;;
        --uninstall) uninstall=true ;;
        --yes) unattended=true ;;
        --calibrate) calibrate_choice=yes ;;
        --no-calibrate) calibrate_choice=no ;;
        --user|--players|--panel|--address|--camera|--web)
            [ $# -ge 2 ] || die "$1 needs a value (see --help)"
            declare "${1#--}=$2"
            shift ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
    shift
done

if ! $dry_run && [ "$(id -u)" != 0 ] && [ -z "$ROOT_PREFIX" ]; then
    die "it installs a service and packages: run it with sudo (sudo $ME), or see the steps with --dry-run"
fi
if [ -z "$user" ]; then
    if $dry_run; then user="$(id -un)"; else
        die "run it with sudo from the account that will run the companion, or name one with --user NAME"
    fi
fi

# ---- answers --------------------------------------------------------------------------------

check_players() {  # 1 to 4 names of 1 to 8 characters, told apart, none holding what the file quotes with
    local IFS=, names name seen=","
    read -r -a names <<<"$1"
    if [ "${#names[@]}" -lt 1 ] || [ "${#names[@]}" -gt 4 ]; then say "1 to 4 names, separated by commas"; return 1; fi
    for name in "${names[@]}"; do
        name="$(printf '%s' "$name" | sed 's/^ *//; s/ *$//')"
        if [ "${#name}" -lt 1 ] || [ "${#name}" -gt 8 ]; then say "'$name': a name has 1 to 8 characters"; return 1; fi
        case "$name" in *[\"\\\&\|]*|*[[:cntrl:]]*) say "'$name': a name may not hold \" \\ & | or control characters"; return 1 ;; esac
        case "$seen" in *",$name,"*) say "'$name' twice: the names must differ"; return 1 ;; esac
        seen="$seen$name,"
    done
}
check_panel() { case "$1" in ssd1306|sh1106) ;; *) say "ssd1306 (0.96\") or sh1106 (1.3\")"; return 1 ;; esac; }
check_address() { [[ "$1" =~ ^0[xX][0-7][0-9a-fA-F]$ ]] || { say "an I2C address such as 0x3c"; return 1; }; }
check_camera() { case "$1" in picamera2|usb) ;; *) say "picamera2 (the Pi camera) or usb (a webcam)"; return 1 ;; esac; }
check_web() { case "$1" in home|off) ;; *) say "home (open to the home network) or off"; return 1 ;; esac; }
check_yes_no() { case "$1" in yes|no) ;; *) say "yes or no"; return 1 ;; esac; }

asking() { ! $unattended && [ -t 0 ]; }

# answer VARIABLE CHECK DEFAULT QUESTION: the option given, else asked (at a terminal), else the default.
answer() {
    local variable=$1 check=$2 default=$3 question=$4 value why
    value="${!variable}"
    if [ -n "$value" ]; then
        why="$("$check" "$value")" || die "--${variable//_/-} $value: allowed is $why"
    elif asking; then
        while true; do
            read -r -p "$question [$default]: " value || die "no answer to: $question"
            value="${value:-$default}"
            why="$("$check" "$value")" && break
            say "  allowed is $why"
        done
    else
        value=$default
    fi
    printf -v "$variable" '%s' "$value"
}

ask_first_configuration() {
    say "$CONFIG is not there yet: a first one is written from these answers (edit it at any time)."
    answer players check_players "Ann,Bob" "The players' names, separated by commas (1 to 4, up to 8 characters each)"
    answer panel check_panel ssd1306 "The OLED: ssd1306 (0.96\", the usual one) or sh1106 (1.3\")"
    if [ -n "$address" ]; then answer address check_address "" ""; fi  # else i2cdetect finds it
    answer camera check_camera picamera2 "The camera: picamera2 (the Pi camera, on its ribbon) or usb (a webcam)"
    answer web check_web off "The web page: home (open to the home network: anyone there reads the games) or off"
}

# ---- steps ----------------------------------------------------------------------------------

as_user() {  # run as the service's user, with its home (pip's cache), whoever we are
    if [ "$(id -u)" = "$(id -u "$user")" ]; then
        "$@"
    else
        runuser -u "$user" -- env HOME="$(getent passwd "$user" | cut -d: -f6)" "$@"
    fi
}

installed_from() {  # the commit checked out, and a digest of any local changes to it
    local commit changes
    commit="$(git -c safe.directory="$CLONE" -C "$CLONE" rev-parse HEAD 2>/dev/null)" || { say "no git"; return; }
    changes="$(git -c safe.directory="$CLONE" -C "$CLONE" diff HEAD 2>/dev/null | sha256sum | cut -c1-16)"
    say "$commit $changes"
}

step_check() {
    id -u "$user" >/dev/null 2>&1 || die "no user '$user' on this machine (--user NAME names another)"
    if [ ! -f "$CLONE/pyproject.toml" ] || [ ! -f "$UNIT_TEMPLATE" ] || [ ! -f "$CONFIG_TEMPLATE" ]; then
        die "$CLONE is not a whole clone of dice-companion (run the installer from its own clone)"
    fi
    case "$CLONE" in *[[:space:]\"\'\\%\$\&\|]*) die "the clone's path $CLONE holds a space, a quote, %, \$, & or |, which the service's unit cannot name: move the clone" ;; esac
    say "  the clone $CLONE, the service's user $user"
}

step_i2c() {
    if [ "$(raspi-config nonint get_i2c)" = 0 ]; then say "  already on"; return; fi
    raspi-config nonint do_i2c 0
    say "  turned on"
}

missing_packages() {
    local package
    for package in "${APT_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || say "$package"
    done
}

step_apt() {
    local missing
    missing="$(missing_packages | tr '\n' ' ')"
    if [ -z "$missing" ]; then say "  all there already"; return; fi
    say "  installing $missing"
    apt-get update -q
    # shellcheck disable=SC2086  # one word per package
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing
}

step_venv() {
    if [ -x "$VENV/bin/python" ] && grep -qx 'include-system-site-packages = true' "$VENV/pyvenv.cfg" 2>/dev/null; then
        say "  $VENV is there and sees the system's packages"; return
    fi
    if [ -e "$VENV" ]; then
        say "  $VENV does not see the system's packages (picamera2, lgpio): made again"
        rm -rf "$VENV"
    fi
    as_user python3 -m venv --system-site-packages "$VENV"
}

step_project() {
    local source
    source="$(installed_from)"
    if [ "$source" != "no git" ] && [ -x "$VENV/bin/dice-companion" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$source" ]; then
        say "  already installed from this checkout (${source%% *})"; return
    fi
    # numpy stays at apt's version: picamera2 (from apt) was built against it
    as_user python3 -c 'import numpy; print("numpy==" + numpy.__version__)' >"$VENV/apt-numpy.txt"
    say "  keeping $(cat "$VENV/apt-numpy.txt") (apt's)"
    # ONNX Runtime (the extra "fast") reads a throw in half OpenCV's time; PyPI has its wheels for
    # 64-bit systems only, and a 32-bit Raspberry Pi OS reports a 64-bit kernel's machine to pip
    local arch extras=""
    arch="$(dpkg --print-architecture 2>/dev/null)" || true
    case "$arch" in
        arm64|amd64) extras="[fast]" ;;
        *) say "  no ONNX Runtime for this ${arch:-unknown} system: OpenCV runs the dice reader's nets (about half as fast)" ;;
    esac
    as_user "$VENV/bin/pip" install -q -c "$VENV/apt-numpy.txt" "$CLONE$extras"
    printf '%s\n' "$source" >"$STAMP"
    chown "$user:" "$VENV/apt-numpy.txt" "$STAMP" 2>/dev/null || true
}

i2c_panel_address() {  # the panel's address as i2cdetect finds it on bus 1, or nothing
    local found
    found="$(i2cdetect -y 1 2>/dev/null | grep -oE '(^| )3[cdCD]( |$)' | tr -d ' ' | head -n 1)" || true
    [ -n "$found" ] && printf '0x%s\n' "$found"
}

write_configuration() {
    local names quoted name web_enabled=false web_address=127.0.0.1 IFS
    if [ -z "$address" ]; then
        address="$(i2c_panel_address)" || true
        if [ -n "$address" ]; then
            say "  i2cdetect found the panel at $address"
        else
            address=0x3c
            say "  no panel answered on I2C bus 1 (i2cdetect -y 1): writing 0x3c; check its wiring, then run doctor"
        fi
    fi
    IFS=, read -r -a names <<<"$players"
    quoted=""
    for name in "${names[@]}"; do
        name="$(printf '%s' "$name" | sed 's/^ *//; s/ *$//')"
        quoted="${quoted:+$quoted, }\"$name\""
    done
    if [ "$web" = home ]; then web_enabled=true web_address=0.0.0.0; fi
    mkdir -p "$(dirname "$CONFIG_FILE")"
    sed -e "1s|.*|# Dice Companion's configuration, first written by $ME; edit it, then: sudo systemctl restart $SERVICE|" \
        -e "s|^players = \[[^]]*\]|players = [$quoted]|" \
        -e "s|^type = \"ssd1306\"|type = \"$panel\"|" \
        -e "s|^i2c_address = 0x3C|i2c_address = $address|" \
        -e "s|^backend = \"picamera2\"|backend = \"$camera\"|" \
        -e "s|^enabled = false|enabled = $web_enabled|" \
        -e "s|^address = \"127.0.0.1\"|address = \"$web_address\"|" \
        "$CONFIG_TEMPLATE" >"$CONFIG_FILE.new"
    chmod 0644 "$CONFIG_FILE.new"
    mv "$CONFIG_FILE.new" "$CONFIG_FILE"
    say "  written: players $quoted, panel $panel at $address, camera $camera, web page $([ "$web" = home ] && echo 'open to the home network' || echo off)"
}

data_dir=$DEFAULT_DATA
step_config() {
    if [ -e "$CONFIG_FILE" ]; then
        say "  $CONFIG is there: kept as it is"
    else
        write_configuration
    fi
    # checked as the companion checks it; prints the data folder it names
    data_dir="$("$VENV/bin/python" - "$CONFIG_FILE" <<'EOF'
import sys
from pathlib import Path
import firmware.games  # lists the games, whose names and player counts the configuration is checked against
from firmware.config import ConfigError, load_config
try:
    print(load_config(Path(sys.argv[1])).data_dir)
except ConfigError as error:
    sys.exit(f"  {error}")
EOF
)"
    say "  checked: the companion takes it (its data folder: $data_dir)"
}

step_data() {
    local folder="$ROOT_PREFIX$data_dir"
    if [ -d "$folder" ] && [ "$(stat -c %U "$folder")" = "$user" ]; then
        say "  $data_dir is there and belongs to $user: kept as it is"; return
    fi
    if [ -d "$folder" ]; then
        # only a folder that is the companion's (empty, or holding its journal) is given away whole:
        # a data folder named /var/lib or /srv must not hand everything in it to the user
        if [ -n "$(ls -A "$folder")" ] && [ ! -e "$folder/journal.sqlite3" ]; then
            die "$data_dir belongs to $(stat -c %U "$folder") and holds other things: name a folder of its own in $CONFIG ([data] dir)"
        fi
        chown -R "$user:" "$folder"
        say "  $data_dir given to $user (it keeps what is in it)"
    else
        install -d -m 0755 -o "$user" -g "$(id -gn "$user")" "$folder"
        say "  $data_dir made, belonging to $user"
    fi
}

unit_changed=false
step_unit() {
    local wanted
    wanted="$(sed -e "1,2c # Written by $ME from firmware/pi/dice-companion.service: change those and rerun it." \
                  -e "s|^User=.*|User=$user|" \
                  -e "s|^ExecStart=[^ ]*|ExecStart=$VENV/bin/dice-companion|" "$UNIT_TEMPLATE")"
    if ! grep -qx "User=$user" <<<"$wanted" || ! grep -q "^ExecStart=$VENV/bin/dice-companion run --config $CONFIG" <<<"$wanted"; then
        die "firmware/pi/dice-companion.service has no User= or ExecStart= line to fill in"
    fi
    if [ -f "$UNIT_FILE" ] && [ "$(cat "$UNIT_FILE")" = "$wanted" ]; then say "  already as it should be"; return; fi
    mkdir -p "$(dirname "$UNIT_FILE")"
    printf '%s\n' "$wanted" >"$UNIT_FILE.new"
    chmod 0644 "$UNIT_FILE.new"
    mv "$UNIT_FILE.new" "$UNIT_FILE"
    say "  written: User=$user, ExecStart=$VENV/bin/dice-companion run --config $CONFIG"
    unit_changed=true
}

step_service() {
    if $unit_changed; then systemctl daemon-reload; say "  systemd reloaded"; fi
    if systemctl is-enabled --quiet "$SERVICE"; then say "  already enabled"; return; fi
    systemctl enable "$SERVICE"
    say "  enabled (it starts at boot)"
}

tray_skipped=false  # set by the calibrate step when the tray is left for later
step_doctor() {  # the service is stopped (the calibrate step)
    local report status=0
    report="$(as_user "$VENV/bin/dice-companion" doctor --config "$CONFIG_FILE")" || status=$?
    printf '%s\n' "$report"
    [ "$status" -eq 0 ] && return
    # a tray left for later is no fault of the install: doctor says it, and the service starts
    if $tray_skipped && grep -q '^tray: not calibrated' <<<"$report" \
            && ! grep -E '^[a-z ]+: ' <<<"$report" | grep -vE '^[a-z ]+: ok|^tray: not calibrated' | grep -q .; then
        say "  every part is ok but the tray, left for later (the calibrate step says how)"
        return
    fi
    return "$status"
}

# calibrate and doctor open the camera, the display (and doctor the buttons and the page's port)
# themselves: the service lets go of them first, and starts again in the last step
step_calibrate() {
    local choice=$calibrate_choice
    if systemctl is-active --quiet "$SERVICE"; then
        systemctl stop "$SERVICE"
        say "  the service stopped while calibrate and doctor open the devices (it starts again at the end)"
    fi
    if [ -z "$choice" ] && asking; then
        read -r -p "Calibrate the tray now? Put the empty tray under the camera first [y/N]: " choice || choice=no
        case "$choice" in [yY]*) choice=yes ;; *) choice=no ;; esac
    fi
    if [ "$choice" != yes ]; then
        tray_skipped=true
        say "  not now; later: sudo systemctl stop $SERVICE; $VENV/bin/dice-companion calibrate --config $CONFIG; sudo systemctl start $SERVICE"
        return
    fi
    as_user "$VENV/bin/dice-companion" calibrate --config "$CONFIG_FILE"
}

step_start() {
    systemctl start "$SERVICE"
    say "  running what is installed now"
}

step_stop() {
    if systemctl is-enabled --quiet "$SERVICE" || systemctl is-active --quiet "$SERVICE"; then
        systemctl disable --now "$SERVICE"; say "  stopped and disabled"
    else
        say "  not enabled, not running"
    fi
}

step_remove_unit() {
    if [ ! -e "$UNIT_FILE" ]; then say "  not there"; return; fi
    rm -f "$UNIT_FILE"
    systemctl daemon-reload
    say "  removed; systemd reloaded"
}

step_remove_venv() {
    if [ ! -e "$VENV" ]; then say "  not there"; return; fi
    rm -rf "$VENV"
    say "  removed"
}

step_keep() {
    say "  kept $CONFIG and $DEFAULT_DATA (or the data folder it names): remove them yourself to forget every game"
    say "  left as they were: the apt packages, I2C, the clone"
}

# advice NAME: what to do when step NAME fails
advice() {
    case "$1" in
        i2c) say "turn I2C on yourself (sudo raspi-config: Interface Options, I2C), then run $ME again" ;;
        apt) say "see apt's message above; check the network and 'sudo apt update', then run $ME again" ;;
        venv) say "check that python3-venv is installed and the clone belongs to $user, then run $ME again" ;;
        project) say "see pip's message above (the network? the disk full?), then run $ME again" ;;
        config) say "edit $CONFIG as the message says (or move it away for a new one), then run $ME again" ;;
        data) say "make it yourself: sudo install -d -o $user $DEFAULT_DATA, then run $ME again" ;;
        unit|service) say "see 'systemctl status $SERVICE' and 'journalctl -u $SERVICE', then run $ME again" ;;
        doctor) say "doctor named what is wrong above, and the README's Raspberry Pi section says what to do for each; the service is left stopped: run $ME again once it is fixed" ;;
        calibrate) say "nothing was stored and the service is left stopped: run $ME again, or calibrate later as the README says (Calibrating the tray), then sudo systemctl start $SERVICE" ;;
        start) say "see 'systemctl status $SERVICE' and 'journalctl -u $SERVICE'; doctor's lines above say what it found" ;;
        *) say "see the message above, then run $ME again" ;;
    esac
}

failed() {
    local status=$1
    [ "$BASH_SUBSHELL" = 0 ] || exit "$status"  # a command substitution's failure is told once, by the step
    trap - ERR
    printf '%s: step "%s" failed (status %s): %s\n' "$ME" "$current" "$status" "$(advice "$current")" >&2
    exit 1
}
trap 'failed $?' ERR

if $uninstall; then
    steps=(
        "check|the clone and the user"
        "stop|stop and disable the service $SERVICE"
        "remove_unit|remove $UNIT_FILE and reload systemd"
        "remove_venv|remove the venv $VENV"
        "keep|keep $CONFIG and the data folder"
    )
else
    steps=(
        "check|the clone and the user the service runs as"
        "i2c|turn I2C on (raspi-config)"
        "apt|install the apt packages: ${APT_PACKAGES[*]}"
        "venv|make the venv $VENV, seeing the system's packages (picamera2, lgpio, numpy)"
        "project|install the project into the venv, numpy kept at apt's version"
        "config|write $CONFIG where none is there (an existing one is kept), and check it"
        "data|make the data folder $DEFAULT_DATA (or the one $CONFIG names) and give it to the user"
        "unit|write $UNIT_FILE with the user, the clone and the venv filled in"
        "service|reload systemd and enable $SERVICE (it starts at boot)"
        "calibrate|stop $SERVICE if it runs (calibrate and doctor open the devices), offer to calibrate the tray"
        "doctor|run dice-companion doctor --config $CONFIG: every part checked, one line each"
        "start|start $SERVICE, running what is installed now"
    )
fi

if $dry_run; then
    say "$ME --dry-run: the steps, for the user $user and the clone $CLONE; nothing is done"
elif ! $uninstall && [ ! -e "$CONFIG_FILE" ]; then
    ask_first_configuration
fi

number=0
for entry in "${steps[@]}"; do
    number=$((number + 1))
    current="${entry%%|*}"
    say "[$number/${#steps[@]}] $current: ${entry#*|}"
    $dry_run || "step_$current"
done
if $dry_run; then
    say "dry run: nothing was done"
elif $uninstall; then
    say "uninstalled: $SERVICE no longer runs; the configuration and the data are kept"
else
    say "installed: $SERVICE runs as $user; its log: journalctl -u $SERVICE -f"
fi
