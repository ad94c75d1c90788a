"""Print: rule summaries, one-page Kingdom sheets, proxies, and the randomizer that deals Kingdoms."""
