"""Harbor Towns, an example Kingdom expansion.

Installed with `pip install examples/harbor`, this package declares the entry point
`kingdom.expansions: harbor = kingdom_harbor`; Kingdom loads the card files beside this module.
"""

from pathlib import Path

FOLDER = Path(__file__).resolve().parent
