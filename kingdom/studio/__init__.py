"""Kingdom Studio: a local web page where a designer writes an expansion's cards (server.py),
checked, completed, rendered as proxies, tested, rated and played as they type (play.py)."""
