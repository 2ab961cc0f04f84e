"""Links a judge can read and hit, in Chromium on the real database: every link of the judges' pages at least 4.5:1
against what is behind it in every state (normal, visited, hovered, focused; the states forced through the DevTools
protocol, as ``getComputedStyle`` never tells a page a link's visited colour); on a phone, the small inline links
(a replay's tags, the rule numbers in the step box, the notes' links) at least 44 px high, or with no other link
within the 44 px around them.
"""

from __future__ import annotations

import pytest
from test_browser import DESKTOP, PHONE, _screenshot

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not __import__("test_browser").CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]

PAGES = [
    "/",
    "/rules/riftbound/2026-06-18/336",
    "/rulings/13",
    "/cards/zhonyas-hourglass",
    "/keywords/riftbound/Tank",
    "/search?q=recalled",
    "/replays",
    "/replays/ruling-03-zhonya-heals-keeps-stat-mods?step=3",
    "/diff/riftbound/2025-12-01/2026-06-18?rule=340",
    "/offline/riftbound",
]
STATES = ("", "visited", "hover", "focus")
PER_PAGE = 40  # links measured per page: one of each look (its classes and where it sits), then more up to this

# Each visible link, one of each look first: its index among the page's links, and the background behind it (the
# first opaque background of it or its ancestors, the page's white when none), blended in JavaScript.
LINKS = """(limit) => {
  const opaque = (element) => {
    for (let node = element; node; node = node.parentElement) {
      const colour = getComputedStyle(node).backgroundColor;
      const parts = colour.match(/[\\d.]+/g).map(Number);
      if (parts.length < 4 || parts[3] === 1) return parts.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const links = [...document.querySelectorAll("a[href]")];
  const looks = new Map();
  links.forEach((link, index) => {
    const box = link.getBoundingClientRect();
    if (!box.width || !box.height || getComputedStyle(link).visibility === "hidden") return;
    const look = [link.className, link.parentElement.className, link.closest("header, footer, section, nav, table, li")?.className].join("|");
    if (!looks.has(look)) looks.set(look, { index, background: opaque(link), look });
  });
  return [...looks.values()].slice(0, limit);
}"""


def _luminance(rgb: tuple[float, float, float]) -> float:
    def channel(value: float) -> float:
        value /= 255
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    red, green, blue = (channel(value) for value in rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(foreground: str, background: tuple[float, float, float]) -> float:
    """WCAG's contrast ratio of a CSS colour (``rgb()``/``rgba()``, blended over the background) against it."""
    parts = [float(part) for part in foreground[foreground.index("(") + 1 : -1].replace("/", ",").split(",")]
    alpha = parts[3] if len(parts) > 3 else 1.0
    shown = tuple(alpha * value + (1 - alpha) * behind for value, behind in zip(parts[:3], background))
    lighter, darker = sorted((_luminance(shown), _luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def test_contrast_is_what_wcag_says():
    assert round(contrast("rgb(0, 0, 0)", (255, 255, 255)), 1) == 21.0
    assert round(contrast("rgb(103, 201, 141)", (255, 255, 255)), 1) == 2.0  # Datasette's hover green
    assert round(contrast("rgba(255, 255, 244, 0.8)", (39, 104, 144)), 2) == 4.5  # Datasette's header links, barely


def _colours_in_every_state(page, index: int) -> dict[str, tuple[str, str]]:
    """The link's colour and own background in each forced state (DevTools' CSS.forcePseudoState)."""
    client = page.context.new_cdp_session(page)
    try:
        client.send("DOM.enable")
        client.send("CSS.enable")
        root = client.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        node = client.send("DOM.querySelectorAll", {"nodeId": root, "selector": "a[href]"})["nodeIds"][index]
        found = {}
        for state in STATES:
            client.send("CSS.forcePseudoState", {"nodeId": node, "forcedPseudoClasses": [state] if state else []})
            style = {
                item["name"]: item["value"]
                for item in client.send("CSS.getComputedStyleForNode", {"nodeId": node})["computedStyle"]
            }
            found[state or "normal"] = (style["color"], style["background-color"])
        client.send("CSS.forcePseudoState", {"nodeId": node, "forcedPseudoClasses": []})
        return found
    finally:
        client.detach()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_every_link_reads_at_4_5_to_1_in_every_state(chromium, real_server, viewport):
    page = chromium.page(viewport)
    faults = []
    measured = 0
    for url in PAGES:
        page.goto(real_server + url)
        for link in page.evaluate(LINKS, PER_PAGE):
            for state, (colour, own_background) in _colours_in_every_state(page, link["index"]).items():
                background = link["background"]
                parts = [float(part) for part in own_background[own_background.index("(") + 1 : -1].split(",")]
                if len(parts) == 3 or parts[3] == 1:  # the link's own background in that state (a button's)
                    background = parts[:3]
                ratio = contrast(colour, tuple(background))
                measured += 1
                if ratio < 4.5:
                    faults.append((url, link["look"], state, colour, background, round(ratio, 2)))
    assert measured > 4 * len(PAGES) * 5 and faults == []


# The small inline links a thumb aims at: a replay's tags in the list, the rule numbers in the step box, links in
# notes; each page has some.
TARGETS = {
    "/replays": "ol.replays .note a",
    "/replays/ruling-03-zhonya-heals-keeps-stat-mods?step=3": ".now a, ol.judge-steps .cites a",
    "/rules/riftbound/2026-06-18/340": ".note:not(.credit) a, .history a",
    "/cards/zhonyas-hourglass": ".note:not(.credit) a",
}

# Each matched link too small (under 44 px high or wide) with another link within the 44 px square centred on it.
CROWDED = """(selector) => {
  const all = [...document.querySelectorAll("a[href]")].filter((a) => a.getClientRects().length);
  const wanted = [...document.querySelectorAll(selector)].filter((a) => a.getClientRects().length);
  const faults = [];
  for (const link of wanted) {
    for (const box of link.getClientRects()) {
      const grow = (size) => Math.max(0, (44 - size) / 2);
      const zone = { left: box.left - grow(box.width), right: box.right + grow(box.width),
                     top: box.top - grow(box.height), bottom: box.bottom + grow(box.height) };
      if (box.height >= 44 && box.width >= 44) continue;
      const hit = all.find((other) => other !== link && !other.contains(link) && !link.contains(other) &&
        [...other.getClientRects()].some((b) => b.left < zone.right - 0.5 && b.right > zone.left + 0.5 &&
                                                 b.top < zone.bottom - 0.5 && b.bottom > zone.top + 0.5));
      if (hit) faults.push([link.textContent.trim().slice(0, 30), Math.round(box.height), Math.round(box.width),
                            hit.textContent.trim().slice(0, 30)]);
    }
  }
  return { count: wanted.length, faults };
}"""


def test_small_inline_links_are_tall_or_apart_on_a_phone(chromium, real_server):
    page = chromium.page(PHONE)
    for url, selector in TARGETS.items():
        page.goto(real_server + url)
        found = page.evaluate(CROWDED, selector)
        assert found["count"] > 0, (url, selector)
        assert found["faults"] == [], (url, found["faults"][:10])
    page.goto(real_server + "/replays")
    _screenshot(page, "phone-replay-tags", full_page=False)
