"""Layout checks shared by the window tests, and (`python -m tests.ui.layout_checks`) a window at
1024×700 with result cards, reported as JSON: run at QT_SCALE_FACTOR=2 by the layout tests."""

from __future__ import annotations

from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QAbstractButton, QWidget

from caec_desktop.ui.chat_pane import PIN_MARGIN_PX, ChatPane


def cut_buttons(root: QWidget) -> list[str]:
    """Visible buttons under `root` narrower than their text needs."""
    cut = []
    for button in root.findChildren(QAbstractButton):
        if not button.isVisible() or not button.text():
            continue
        text = button.text().replace("&", "")
        needs = max(button.minimumSizeHint().width(), button.fontMetrics().horizontalAdvance(text))
        if button.width() < needs:
            cut.append(f"{text!r}: {button.width()} < {needs}")
    return cut


def at_the_turn(chat: ChatPane) -> bool:
    """Where a following view rests: at the end (`at_the_end`), or, when the newest turn is
    taller than the view under its question, with that question at the view's top (its answer's
    first lines under it), the view following, and the end button offering the rest."""
    if at_the_end(chat):
        return True
    users = [w for w in chat.items() if w.property("role") == "user"]
    if not users:
        return False
    top = users[-1].mapTo(chat.scroll_area.viewport(), QPoint(0, 0)).y()
    return 0 <= top <= PIN_MARGIN_PX and chat.following and not chat.new_answer_button.isHidden()


def at_the_end(chat: ChatPane) -> bool:
    """The vertical bar at its maximum and the newest item's bottom inside the viewport."""
    bar = chat.scroll_area.verticalScrollBar()
    viewport = chat.scroll_area.viewport()
    last = chat.items()[-1]
    bottom = last.mapTo(viewport, QPoint(0, last.height())).y()
    return bar.value() == bar.maximum() and 0 < bottom <= viewport.height()


def no_sideways_scroll(chat: ChatPane) -> bool:
    host = chat.scroll_area.widget()
    return (
        not chat.scroll_area.horizontalScrollBar().isVisible()
        and host.width() <= chat.scroll_area.viewport().width()
    )


def main() -> None:
    import json

    from PySide6.QtWidgets import QApplication

    from caec_desktop.tools import execute
    from caec_desktop.ui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    window = MainWindow()
    window.resize(1024, 700)
    window.show()
    window.build_panels()
    calls = [
        ("rayleigh_timestep", {"particle_radius": "1 mm", "density": 2500,
                               "youngs_modulus": "70 GPa", "poisson_ratio": 0.25}),
        ("hertz_contact_time", {"particle_radius": "1 mm", "density": 2500,
                                "youngs_modulus": "70 GPa", "poisson_ratio": 0.25,
                                "impact_velocity": "2 m/s"}),
        ("convert_units", {"value": 3, "from_unit": "inch", "to_unit": "mm"}),
    ]  # fmt: skip
    for tool, args in calls:
        outcome = execute(tool, args)
        sheet = outcome.calc_sheet.model_dump() if outcome.calc_sheet else None
        window.chat.add_message("user", tool)
        card = window.chat.add_result(
            {"tool": tool, "args": args, "result": outcome.result, "calc_sheet": sheet}
        )
        card.sheet_button.setChecked(True)
        window.chat.add_message("answer", "Done. " * 40)
    for _ in range(50):  # let the layouts settle (bounded)
        app.processEvents()
        if at_the_end(window.chat):
            break
    report = {
        "dpr": window.devicePixelRatioF(),
        "size": [window.width(), window.height()],
        "cut": cut_buttons(window),
        "sideways": not no_sideways_scroll(window.chat),
        "at_end": at_the_end(window.chat),
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
