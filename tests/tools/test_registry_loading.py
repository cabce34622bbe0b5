"""The registry knows every tool whichever module is imported first."""

from __future__ import annotations

import subprocess
import sys

from caec_desktop.tools import tool_names


def test_importing_one_tool_module_first_still_registers_all() -> None:
    code = (
        "import caec_desktop.tools.contact\n"
        "from caec_desktop.tools import tool_names\n"
        "print(len(tool_names()))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert int(out.stdout) == len(tool_names()) >= 15
