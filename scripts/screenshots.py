"""Render the window in its main states to docs/screenshots/*.png (offscreen, no network).

    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/screenshots.py

States, at 1280×800: the welcome panel of a new conversation; an offline answer with its calc
sheet open (an earlier conversation in the list); a retry in the trace (a scripted selector
proposes a bad radius first); the graph after that run; the tool form with a validation error;
a sweep from the form (plot with EDEM's bands); the settings dialog; Help → Tools and formulas.
At 1024×700: a conversation of several answers with a calc sheet open, and a question of several
lines whose answer is taller than the view. The real Session and tools produce every number shown.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path
from typing import Any, ClassVar

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# A throw-away profile: the shots' conversations never reach the user's history or settings.
_PROFILE = tempfile.mkdtemp(prefix="caec-shots-")
os.environ["CAEC_DATA_DIR"] = os.path.join(_PROFILE, "data")
os.environ["CAEC_CONFIG_DIR"] = os.path.join(_PROFILE, "config")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
OUT = ROOT / "docs" / "screenshots"

import qasync  # noqa: E402
from PySide6.QtWidgets import QApplication, QWidget  # noqa: E402

QUERY = (
    "rayleigh timestep particle_radius=1 mm density=2500 kg/m^3 youngs_modulus=70 GPa "
    "poisson_ratio=0.25"
)


EARLIER = "how many 2 mm particles fit in a cylinder 100 mm across and 200 mm tall"
SMALL = (
    "hertz contact time 1 mm glass at 2 m/s",
    "is dt = 2e-7 s OK for 1 mm glass beads",
)

TALL = "\n".join(
    [
        "rayleigh time step for 1 mm glass beads",
        "- beads from the new supplier, sieved and dried",
        "- the chute run starts next week",
        "- our usual step is too slow for the full hopper",
        "- please check the step against the recommended fraction",
        "- and show the calc sheet for the design review",
        "- glass as in the supplier's data sheet",
    ]
)


class RetrySelector:
    """Proposes a negative radius first, then the right one (what a weak model might do)."""

    answers_in_prose = True  # a model's stand-in (the selector protocol asks every selector)

    good: ClassVar[dict[str, Any]] = {
        "particle_radius": "1 mm",
        "density": 2500,
        "youngs_modulus": "70 GPa",
        "poisson_ratio": 0.25,
    }

    async def classify(self, request: Any) -> str:
        return "calculation"

    async def select(self, request: Any) -> Any:
        from caec_desktop.agent.selection.protocol import ProposedCall, Selection

        args = dict(self.good)
        if request.attempt == 1:
            args["particle_radius"] = "-1 mm"
        return Selection(calls=[ProposedCall("rayleigh_timestep", args, source="llm")])

    async def summarize(self, request: Any, results: list[dict[str, Any]]) -> str | None:
        return None

    async def aclose(self) -> None:
        """Nothing to close (the selector protocol asks every selector for it)."""


def show_tab(window: Any, panel: QWidget) -> None:
    """Show the side tab whose page holds `panel` (each tab's panel sits inside a page)."""
    index = next(i for i in range(window.side.count()) if window.side_panel(i) is panel)
    window.side.setCurrentIndex(index)


def save(widget: QWidget, name: str) -> None:
    for _ in range(5):  # let queued layouts and scrolls run
        QApplication.processEvents()
    path = OUT / name
    widget.grab().save(str(path))
    print(path.relative_to(ROOT))


async def finished(runner: Any) -> Any:
    """The turn, once settled: saved, and the conversation list unlocked (at `runFinished` the
    list and its buttons were still greyed, as in a run)."""
    fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    def _done(turn: Any) -> None:
        if not fut.done():
            fut.set_result(turn)

    runner.runSettled.connect(_done)
    try:
        return await asyncio.wait_for(fut, 30)
    finally:
        runner.runSettled.disconnect(_done)


async def main() -> None:
    from caec_desktop.app import build
    from caec_desktop.services.session import Session
    from caec_desktop.settings.model import Settings

    OUT.mkdir(parents=True, exist_ok=True)
    settings = Settings(mode="offline")
    window, runner = build(settings, Session(settings))
    window.resize(1280, 800)
    window.show()
    from caec_desktop.services.session import graph_shape

    window.load_graph(graph_shape())
    from caec_desktop.services.history import open_recorder
    from caec_desktop.ui.history_controller import HistoryController

    window.history = open_recorder(print)
    runner.runFinished.connect(window.history.turn_finished)
    window.conversations = HistoryController(window, runner, window.history, print)
    window.chat.input.setPlainText(EARLIER)
    window.chat.input.submit()
    await finished(runner)
    window.conversations.new_conversation()
    for _ in range(100):  # the list shows the earlier conversation once it is saved; at most 5 s
        if window.conversations.list.model.rowCount():
            break
        await asyncio.sleep(0.05)
    save(window, "welcome.png")

    window.chat.input.setPlainText(QUERY)
    window.chat.input.submit()
    await finished(runner)
    card = window.chat.cards()[0]
    card.sheet_button.setChecked(True)
    await asyncio.sleep(0.05)
    window.chat.scroll_area.verticalScrollBar().setValue(0)
    save(window, "main.png")

    window.resize(1024, 700)
    for question in SMALL:
        window.chat.input.setPlainText(question)
        window.chat.input.submit()
        await finished(runner)
    window.chat.cards()[-2].sheet_button.setChecked(True)
    await asyncio.sleep(0.05)
    window.chat.scroll_to_end()
    save(window, "small_1024x700.png")
    window.resize(1280, 800)

    runner.session = Session(settings, selector=RetrySelector())  # type: ignore[arg-type]
    window.chat.input.setPlainText("Rayleigh time step for 1 mm glass beads")
    window.chat.input.submit()
    await finished(runner)
    window.trace.flush()
    window.trace.tabs.setCurrentIndex(1)
    save(window, "retry.png")
    window.trace.tabs.setCurrentIndex(0)
    window.trace.kind_filter.setCurrentText("problems only")
    window.trace.table.selectRow(0)
    save(window, "trace_problems.png")
    show_tab(window, window.graph)
    save(window, "graph.png")

    form = window.form
    assert form is not None
    show_tab(window, form)
    form.set_tool("rayleigh_timestep")
    form.fill_example()
    form.editors["density"].set_value("2500 m")  # a length where a density belongs
    form.check()
    save(window, "form_error.png")

    # A sweep from the form: the Rayleigh step against the radius, judged for dt = 0.2 µs.
    window.conversations.new_conversation()
    form.fill_example()
    form.editors["particle_radius"].set_unit("mm")  # type: ignore[attr-defined]
    switch = form.switches["particle_radius"]
    switch.setChecked(True)
    switch.row.set_entry("0.1", "3", 60, "log")
    switch.row.threshold.setText("2e-7 s")
    form.run()
    await finished(runner)
    from caec_desktop.ui.sweep_card import SweepCard

    sweep = next(w for w in window.chat.items() if isinstance(w, SweepCard))
    for _ in range(600):  # the plotting library loads on a thread; at most 30 s
        if sweep.plot.drawn:
            break
        await asyncio.sleep(0.05)
    sweep.plot.readout.setText(sweep.plot.readout_text(30))
    window.chat.scroll_area.ensureWidgetVisible(sweep)
    save(window, "sweep.png")
    save(sweep, "sweep_card.png")

    # At 1024×700 a question of several lines whose answer is taller than the view: the view
    # stops with the whole question at its top, the card's results under it.
    window.resize(1024, 700)
    runner.session = Session(settings)  # offline again
    window.conversations.new_conversation()
    window.trace.kind_filter.setCurrentText("all kinds")
    show_tab(window, window.trace)
    window.chat.input.setPlainText(TALL)
    window.chat.input.submit()
    await finished(runner)
    window.chat.cards()[-1].sheet_button.setChecked(True)
    await asyncio.sleep(0.05)
    save(window, "tall_question_1024x700.png")
    window.resize(1280, 800)

    help_dialog = window.show_tools_help()
    help_dialog.resize(900, 700)
    save(help_dialog, "help_tools.png")
    help_dialog.close()

    window.open_settings()
    dialog = window.settings_dialog
    assert dialog is not None
    dialog.mode_box.setCurrentText("openrouter")
    dialog.key_edit.setText("not-a-real-key-" + "0" * 16)  # shown masked
    await asyncio.sleep(0.05)
    save(dialog, "settings.png")
    dialog.reject()
    await runner.shutdown()
    window.close()


if __name__ == "__main__":
    app = QApplication.instance() or QApplication(sys.argv[:1])
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    with loop:
        loop.run_until_complete(main())
