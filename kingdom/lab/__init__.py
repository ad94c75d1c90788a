"""The lab: bots, strategy files, seeded simulation, ratings and plots."""
