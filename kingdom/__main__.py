"""`python -m kingdom`: the same as the `kingdom` command."""

import sys

from kingdom.cli.main import main

sys.exit(main())
