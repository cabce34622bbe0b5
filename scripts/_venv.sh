# Sourced by scripts/test and scripts/app: make .venv with the app installed (idempotent, quiet).
py=""
for c in python3.11 python3.12 python3.13 python3; do
  if command -v "$c" >/dev/null && "$c" -c 'import sys; sys.exit(not ((3,11) <= sys.version_info < (3,14)))'; then
    py=$c; break
  fi
done
[ -n "$py" ] || { echo "Python 3.11-3.13 is needed" >&2; exit 1; }
stamp=.venv/.installed
if [ ! -x .venv/bin/python ] || [ pyproject.toml -nt "$stamp" ]; then
  echo "Setting up .venv with $py ..."
  [ -x .venv/bin/python ] || "$py" -m venv .venv
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e '.[dev]'
  touch "$stamp"
fi
