"""Where a package's inputs came from reads in words, as in the answer and the card."""

from __future__ import annotations

from caec_desktop.services.report import TurnRecord, build_package


def test_a_halved_diameter_reads_in_words_in_the_package() -> None:
    """The package's Source column said `typed (d/2)` where the answer and the card say
    `typed as diameter 1 mm ÷ 2` (the record keeps `typed (d/2)`)."""
    import asyncio

    from caec_desktop.services.session import Session
    from caec_desktop.settings.model import Settings

    session = Session(Settings(mode="offline"))

    async def ask() -> None:
        async for _event in session.ask("rayleigh time step for 1 mm glass beads"):
            pass
        await session.aclose()

    asyncio.run(ask())
    turn = session.last_turn
    assert turn is not None and turn.status == "answered"
    result = turn.model_dump(mode="json")
    (call,) = result["tool_results"]
    assert call["arg_sources"]["particle_radius"] == "typed (d/2)"  # the record as it was
    text = build_package("beads", [TurnRecord(1, "beads", result)]).markdown()
    row = next(line for line in text.splitlines() if line.startswith("| particle_radius"))
    assert "typed as diameter 1 mm ÷ 2" in row and "typed (d/2)" not in row, row
