"""An expansion that ends the process when imported."""
import sys

sys.exit(3)
