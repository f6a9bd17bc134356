"""
Draws apps/web/src/assets/bitcoin-sign.woff: one glyph, the bitcoin sign (U+20BF), for the systems whose fonts
lack it (it showed as an empty box). The web app's font stack names it first with `unicode-range: U+20BF`
(apps/web/src/app/bitcoin-sign.css), so it serves that character only. Needs fontTools (pip install fonttools):
python3 scripts/fonts/bitcoin-sign.py
"""
from pathlib import Path

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen

UPM, CAP, ADVANCE = 1000, 700, 620
OUT = Path(__file__).resolve().parents[2] / "apps/web/src/assets/bitcoin-sign.woff"


def rectangle(pen, x0, y0, x1, y1):
    """A clockwise rectangle (an outer contour in TrueType)."""
    pen.moveTo((x0, y0))
    pen.lineTo((x0, y1))
    pen.lineTo((x1, y1))
    pen.lineTo((x1, y0))
    pen.closePath()


def bitcoin_sign():
    pen = TTGlyphPen(None)
    # The B: clockwise outline, then its two counters anticlockwise.
    pen.moveTo((80, 0))
    pen.lineTo((80, CAP))
    pen.lineTo((330, CAP))
    pen.qCurveTo((510, CAP), (510, 540))
    pen.qCurveTo((510, 420), (410, 378))
    pen.qCurveTo((550, 340), (550, 200))
    pen.qCurveTo((550, 0), (340, 0))
    pen.closePath()
    pen.moveTo((190, 420))
    pen.lineTo((320, 420))
    pen.qCurveTo((400, 420), (400, 515))
    pen.qCurveTo((400, 610), (320, 610))
    pen.lineTo((190, 610))
    pen.closePath()
    pen.moveTo((190, 90))
    pen.lineTo((335, 90))
    pen.qCurveTo((435, 90), (435, 205))
    pen.qCurveTo((435, 330), (335, 330))
    pen.lineTo((190, 330))
    pen.closePath()
    # The two strokes through the top and the bottom.
    for x in (190, 320):
        rectangle(pen, x, CAP - 10, x + 70, CAP + 110)
        rectangle(pen, x, -110, x + 70, 10)
    return pen.glyph()


def notdef():
    pen = TTGlyphPen(None)
    rectangle(pen, 50, 0, 450, CAP)
    return pen.glyph()


builder = FontBuilder(UPM, isTTF=True)
builder.setupGlyphOrder([".notdef", "bitcoin"])
builder.setupCharacterMap({0x20BF: "bitcoin"})
builder.setupGlyf({".notdef": notdef(), "bitcoin": bitcoin_sign()})
builder.setupHorizontalMetrics({".notdef": (500, 50), "bitcoin": (ADVANCE, 80)})
builder.setupHorizontalHeader(ascent=900, descent=-200)
builder.setupNameTable({"familyName": "Helium Bitcoin Sign", "styleName": "Regular"})
builder.setupOS2(sTypoAscender=900, sTypoDescender=-200, usWinAscent=900, usWinDescent=200, sCapHeight=CAP)
builder.setupPost()
builder.font.flavor = "woff"
builder.save(OUT)
print(f"{OUT}: {OUT.stat().st_size} bytes")
