# Sourced by scripts/_venv.sh and scripts/lock: sets $py to a Python 3.11-3.13 on PATH.
py=""
for c in python3.11 python3.12 python3.13 python3; do
  if command -v "$c" >/dev/null && "$c" -c 'import sys; sys.exit(not ((3,11) <= sys.version_info < (3,14)))'; then
    py=$c; break
  fi
done
[ -n "$py" ] || { echo "Python 3.11-3.13 is needed" >&2; exit 1; }
