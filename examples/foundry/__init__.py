"""Foundry, a second example Kingdom expansion of original cards.

Installed with `pip install examples/foundry`, this package declares the entry point
`kingdom.expansions: foundry = kingdom_foundry`; Kingdom loads the card files beside this module.
"""

from pathlib import Path

FOLDER = Path(__file__).resolve().parent
