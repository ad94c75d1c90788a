"""An expansion whose import fails."""
raise RuntimeError("this package is broken")
