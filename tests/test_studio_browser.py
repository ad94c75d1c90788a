"""`kingdom studio` driven in a real headless Chromium (Debian's chromium and chromium-driver,
through Selenium): a new card typed, its error shown and fixed, its proxy drawn and updated,
completion, its scenarios run, a rating, a game played to its end, and the accessibility tree
checked for the narration's live region and labelled controls. .ci/run installs the browser;
elsewhere, without one, these tests are skipped with a warning saying so."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
try:
    from selenium import webdriver
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:  # pragma: no cover
    webdriver = None
if webdriver is None or not CHROMIUM or not DRIVER:
    REASON = ("Kingdom Studio's browser tests skipped: no chromium and chromedriver here "
              "(apt-get install chromium chromium-driver; .ci/run does)")
    warnings.warn(REASON, stacklevel=1)
    pytest.skip(REASON, allow_module_level=True)

SCREENSHOTS = Path(os.environ.get("STUDIO_SCREENSHOTS", "")) if os.environ.get(
    "STUDIO_SCREENSHOTS") else None
SCENARIO = """- name: Smelter gives a card, an action and two coins
  setup:
    p1:
      hand: [Smelter]
      deck: [Copper, Silver]
  steps:
    - play: Smelter
  expect:
    p1:
      hand: [Copper]
      deck: [Silver]
      actions: 1
      coins: 2
"""
CARD_LINES = ["dsl: 1", "name: Smelter", "cost: 4", "types: [Acton]",
              "play: +1 card; +1 action; +$1"]


@pytest.fixture(scope="module")
def studio(tmp_path_factory):
    """`kingdom studio` on a new expansion folder, on a free port; its address and folder."""
    root = tmp_path_factory.mktemp("expansion")
    (root / "expansion.yaml").write_text("name: Studio Test\nversion: 1.0.0\ndsl: 1\nset: studiotest\n")
    (root / "scenarios").mkdir()
    (root / "scenarios" / "smelter.yaml").write_text(SCENARIO)
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    server = subprocess.Popen([sys.executable, "-m", "kingdom", "studio", str(root), "--port", "0",
                               "--no-browser"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, env=env)
    first = server.stdout.readline()
    address = re.search(r"http://127\.0\.0\.1:\d+/", first)
    assert address, first
    yield address.group(0), root
    server.terminate()
    server.wait(10)


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1100",
                 "--disable-dev-shm-usage"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(DRIVER))
    yield driver
    driver.quit()


def _wait(driver, condition, seconds: float = 30):
    return WebDriverWait(driver, seconds, poll_frequency=0.1).until(lambda d: condition())


def _text(driver, css: str) -> str:
    """The visible text of what `css` selects, read in one step (the page redraws as it goes)."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0]), e => e.innerText.trim())"
        ".join(' ')", css)


def _shot(driver, name: str) -> None:
    if SCREENSHOTS is not None:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(SCREENSHOTS / f"{name}.png"))


def _type(driver, lines: list[str]) -> None:
    """Type lines into the editor as a person would, closing the completion list (Escape)
    before each Enter."""
    field = driver.find_element(By.CSS_SELECTOR, ".CodeMirror textarea")
    for line in lines:
        field.send_keys(line)
        time.sleep(0.3)
        field.send_keys(Keys.ESCAPE, Keys.ENTER)


def test_a_new_card_from_typing_to_a_finished_game(studio, browser) -> None:
    address, root = studio
    driver = browser
    driver.get(address)
    _wait(driver, lambda: "Studio Test" in driver.page_source or driver.find_element(By.ID, "root").text)
    driver.find_element(By.ID, "new-name").send_keys("smelter")
    driver.find_element(By.ID, "new").click()
    _type(driver, CARD_LINES)

    # the error appears, on its word, with its fix
    _wait(driver, lambda: "Acton" in _text(driver, "#problems"))
    assert "K300" in _text(driver, "#problems")
    _wait(driver, lambda: _text(driver, ".CodeMirror .CodeMirror-lint-mark-error") == "Acton")
    _shot(driver, "1-error")
    driver.find_element(By.CSS_SELECTOR, "#problems button.fix").click()
    _wait(driver, lambda: _text(driver, "#problems") == "No problems.")
    assert "types: [Action]" in driver.execute_script(
        "return document.querySelector('.CodeMirror').CodeMirror.getValue()")

    # the proxy is drawn, then follows the text
    _wait(driver, lambda: "+$1" in _text(driver, "#proxy .proxy .text"))
    assert _text(driver, "#proxy .proxy .name") == "Smelter"
    assert _text(driver, "#proxy .proxy .types") == "ACTION"
    _shot(driver, "2-proxy")
    driver.execute_script("const cm = document.querySelector('.CodeMirror').CodeMirror;"
                          "cm.setCursor(cm.lineCount() - 1, 0);")
    field = driver.find_element(By.CSS_SELECTOR, ".CodeMirror textarea")
    field.send_keys("play: +1 card; +1 action; +$2", Keys.ESCAPE)
    driver.execute_script("const cm = document.querySelector('.CodeMirror').CodeMirror;"
                          "cm.replaceRange('', {line: 4, ch: 0}, {line: 5, ch: 0});")
    _wait(driver, lambda: "+$2" in _text(driver, "#proxy .proxy .text"))

    # completion after "gain a card costing"
    driver.execute_script("const cm = document.querySelector('.CodeMirror').CodeMirror;"
                          "cm.replaceRange('; gain a card costing', {line: 4, ch: 29});"
                          "cm.setCursor(4, 29 + 21);")
    field.send_keys(" ")
    _wait(driver, lambda: "up to" in _text(driver, ".CodeMirror-hints"))
    _shot(driver, "3-completion")
    field.send_keys(Keys.ESCAPE)
    driver.execute_script("const cm = document.querySelector('.CodeMirror').CodeMirror;"
                          "cm.replaceRange('', {line: 4, ch: 29}, {line: 4, ch: 999});")
    _wait(driver, lambda: _text(driver, "#problems") == "No problems.")

    # saved, and its scenarios run
    driver.find_element(By.ID, "run-scenarios").click()
    _wait(driver, lambda: "1 of 1 passed" in _text(driver, "#scenario-results"))
    assert (root / "smelter.yaml").read_text().startswith("dsl: 1\nname: Smelter")

    # rated among the official cards, the bar reaching its end
    games = driver.find_element(By.ID, "games")
    games.clear()
    games.send_keys("2")
    driver.find_element(By.ID, "rate").click()
    _wait(driver, lambda: "ranked" in _text(driver, "#rating-result"), 300)
    bar = driver.find_element(By.ID, "rating-progress")
    assert bar.get_attribute("value") == bar.get_attribute("max") != "1"
    assert "Smelter" in _text(driver, "#rating-result tr.this")
    assert len(driver.find_elements(By.CSS_SELECTOR, "#rating-result tbody tr")) > 20
    _shot(driver, "4-rating")

    # a game against Big Money, played to its end
    driver.find_element(By.ID, "play").click()
    _wait(driver, lambda: _text(driver, "#choices") or _text(driver, "#game-result"))
    for _answer in range(2000):
        if _text(driver, "#game-result"):
            break
        _answer_something(driver)
    _wait(driver, lambda: "Game over" in _text(driver, "#game-result"))
    narration = _text(driver, "#narration")
    assert "Smelter" in narration and "Game over" in narration
    assert re.search(r"p1 buys (Province|Gold|Silver)", narration)  # (the answers were taken)
    _shot(driver, "5-game")
    _check_accessibility(driver)

    # a broken edit: the proxy is kept, greyed, and the good file is not replaced
    saved = (root / "smelter.yaml").read_text()
    driver.execute_script("document.querySelector('.CodeMirror').CodeMirror"
                          ".setValue('dsl: 1\\nname: [Smelter\\n')")
    _wait(driver, lambda: "K100" in _text(driver, "#problems"))
    assert driver.find_elements(By.CSS_SELECTOR, "#proxy.stale .proxy")
    driver.find_element(By.ID, "save").click()
    _wait(driver, lambda: "not saved" in _text(driver, "#save-status"))
    assert (root / "smelter.yaml").read_text() == saved


def _answer_something(driver) -> None:
    """A plain strategy, enough to end a game: play Actions, play every Treasure, buy the best
    of Province, Gold, Smelter, Silver, pick as few cards as allowed, spend nothing."""
    before = driver.execute_script("return document.getElementById('narration').childElementCount"
                                   " + ':' + document.getElementById('prompt').textContent"
                                   " + ':' + document.getElementById('choices').innerText")
    decision = driver.find_element(By.ID, "decision")
    kind, fewest = decision.get_attribute("data-kind"), int(decision.get_attribute("data-min"))
    buttons = {b.text: b for b in driver.find_elements(By.CSS_SELECTOR, "#choices button")}
    boxes = driver.find_elements(By.CSS_SELECTOR, "#choices input[type=checkbox]")
    number = driver.find_elements(By.CSS_SELECTOR, "#choices input[type=number]")
    if number:
        number[0].clear()
        number[0].send_keys(number[0].get_attribute("min"))
        buttons["Answer"].click()
    elif boxes:
        wanted = len(boxes) if kind in ("treasures", "order") else fewest
        for box in boxes[:wanted]:
            box.click()
        buttons["Done"].click()
    else:
        by_name = {label.split(",")[0]: b for label, b in buttons.items()}
        pick = next((by_name[n] for n in ("Province", "Gold", "Smelter", "Silver") if n in by_name),
                    None)
        if pick is None and kind == "buy" and "None" in buttons:
            pick = buttons["None"]
        (pick or next(iter(buttons.values()))).click()
    _wait(driver, lambda: _text(driver, "#game-result") or driver.execute_script(
        "return document.getElementById('narration').childElementCount"
        " + ':' + document.getElementById('prompt').textContent"
        " + ':' + document.getElementById('choices').innerText") != before, 20)


def _check_accessibility(driver) -> None:
    """The browser's own accessibility tree: the narration is a polite live log, and every
    button, text field, checkbox and number field has a name."""
    tree = driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]

    def value(node, key):
        return (node.get(key) or {}).get("value")

    def prop(node, name):
        return next((value(p, "value") for p in node.get("properties", []) if p["name"] == name), None)

    logs = [n for n in tree if value(n, "role") == "log" and value(n, "name") == "Narration"]
    assert logs and prop(logs[0], "live") == "polite"
    controls = [n for n in tree if value(n, "role") in ("button", "textbox", "checkbox", "spinbutton")
                and not n.get("ignored")]
    assert len(controls) > 5
    unnamed = [value(n, "role") for n in controls if not (value(n, "name") or "").strip()]
    assert unnamed == []
    assert any(value(n, "role") == "textbox" and value(n, "name") == "Card file" for n in controls)
