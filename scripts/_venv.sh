# Sourced by scripts/test and scripts/app: make .venv with the app installed at the locked versions
# (requirements/lock.txt, see docs/installing.md). Idempotent and quiet; installs again whenever
# pyproject.toml, the lock or the package version changed (a hash of them is kept in the stamp).
source scripts/_python.sh
stamp=.venv/.installed
inputs="pyproject.toml requirements/lock.txt caec_desktop/__init__.py"
want=$("$py" -c 'import hashlib, sys
h = hashlib.sha256()
for name in sys.argv[1:]:
    h.update(open(name, "rb").read())
print(h.hexdigest())' $inputs)
if [ ! -x .venv/bin/python ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "Setting up .venv with $py ..."
  [ -x .venv/bin/python ] || "$py" -m venv .venv
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e '.[dev]' -c requirements/lock.txt
  echo "$want" > "$stamp"
fi
