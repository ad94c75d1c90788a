"""Scenarios as data: the runner that plays a scenario file, and the checks of its format."""
