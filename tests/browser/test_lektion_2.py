"""Lesson 2 ("Ereignisströme", three pages) in the browser: what only a browser shows
there, the keys in step 11's pictures drawn whole on a phone."""

from __future__ import annotations

from tests.browser.pages import LESSON_2_PART_3, Console, phone_page


def test_the_keys_are_whole_in_the_pictures_on_a_phone(browser: object, site_url: str) -> None:
    # Step 11: product-7 and product-3 (and customer-7 typed beside them) are told apart on a
    # phone; each line of a key lies inside its cell.
    with phone_page(browser, site_url + LESSON_2_PART_3, touch=True) as page:
        stock = Console(page.locator("[data-lk-console]", has_text="produce stock").first)
        stock.command('produce stock key=customer-7 {"order":61}')
        svg = stock.picture.locator("svg")
        cells = svg.evaluate(
            """(svg) => {
                const rects = [...svg.querySelectorAll("rect.eintrag")].map((r) => r.getBBox());
                return [...svg.querySelectorAll("text.schluessel")].map((t) => {
                    const b = t.getBBox();
                    const cell = rects.find((r) => b.x >= r.x && b.x + b.width <= r.x + r.width
                        && b.y >= r.y && b.y + b.height <= r.y + r.height);
                    return [t.textContent, Boolean(cell)];
                });
            }"""
        )
        keys = [text for text, _ in cells]
        assert "".join(keys).count("product-7") == 3 and "product-3" in "".join(keys), keys
        assert "customer-7" in "".join(keys), keys
        assert all(inside for _, inside in cells), cells
        scale = svg.evaluate(
            "(svg) => svg.getBoundingClientRect().width / svg.viewBox.baseVal.width"
        )
        assert 9 * scale >= 6.5, scale  # the key's font on the phone, in CSS pixels
