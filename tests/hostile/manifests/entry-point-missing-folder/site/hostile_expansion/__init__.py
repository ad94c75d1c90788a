"""An expansion naming a folder that does not exist."""


def folder():
    return "/nonexistent/kingdom-cards"
