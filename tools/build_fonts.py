"""Rebuild the fallback fonts of `render/fonts/` from Debian's Noto packages (a dev-only step).

    apt-get download fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji
    for d in *.deb; do dpkg-deb -x "$d" noto; done
    python3 -m venv /tmp/ft && /tmp/ft/bin/pip install fonttools brotli pillow
    /tmp/ft/bin/python tools/build_fonts.py noto/usr/share/fonts

or, to rebuild only some files (and need only their packages), name them after the folder:
`... tools/build_fonts.py /usr/share/fonts NotoSansThai-Bold-subset.woff2`.

Needs fontTools (its `pyftsubset`, run by this same Python; brotli for WOFF2) and Pillow;
neither fontTools nor this script is needed at run time. Debian bookworm: fonts-noto-core
20201225-1, fonts-noto-cjk 1:20220127+repack1-1, fonts-noto-color-emoji 2.042-0+deb12u1. See
render/fonts/README.md.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

OUT = Path(__file__).resolve().parent.parent / "render" / "fonts"
COMMON = ["--no-hinting", "--name-IDs=*", "--flavor=woff2"]
SCRIPTS = {
    "NotoSansArabic-Bold-subset.woff2": (
        "truetype/noto/NotoSansArabic-Bold.ttf",
        "U+0020,U+00A0,U+0600-06FF,U+0750-077F,U+08A0-08FF,U+FB50-FDFF,U+FE70-FEFF,U+200C-200F,U+25CC",
    ),
    "NotoSansHebrew-Bold-subset.woff2": (
        "truetype/noto/NotoSansHebrew-Bold.ttf",
        "U+0020,U+00A0,U+0590-05FF,U+FB1D-FB4F,U+200C-200F,U+25CC",
    ),
    "NotoSansDevanagari-Bold-subset.woff2": (
        "truetype/noto/NotoSansDevanagari-Bold.ttf",
        "U+0020,U+00A0,U+0900-097F,U+A8E0-A8FF,U+1CD0-1CFF,U+200C-200D,U+25CC",
    ),
    "NotoSansThai-Bold-subset.woff2": (
        "truetype/noto/NotoSansThai-Bold.ttf",
        "U+0020,U+00A0,U+0E00-0E7F,U+200C-200D,U+25CC",
    ),
    "NotoSansGeorgian-Bold-subset.woff2": (  # Mkhedruli, Asomtavruli, Mtavruli, Nuskhuri
        "truetype/noto/NotoSansGeorgian-Bold.ttf",
        "U+0020,U+00A0,U+10A0-10FF,U+1C90-1CBF,U+2D00-2D2F,U+200C-200D,U+25CC",
    ),
    "NotoSansArmenian-Bold-subset.woff2": (
        "truetype/noto/NotoSansArmenian-Bold.ttf",
        "U+0020,U+00A0,U+0530-058F,U+FB13-FB17,U+200C-200D,U+25CC",
    ),
    "NotoSansEthiopic-Bold-subset.woff2": (  # Ethiopic, its Supplement and both Extended
        "truetype/noto/NotoSansEthiopic-Bold.ttf",
        "U+0020,U+00A0,U+1200-137F,U+1380-139F,U+2D80-2DDF,U+AB00-AB2F,U+200C-200D,U+25CC",
    ),
    "NotoSansSymbols-Bold-subset.woff2": (  # decorations popular in names: ★☆♥♡☯ ① ...
        "truetype/noto/NotoSansSymbols-Bold.ttf",
        "U+0020,U+00A0,U+2190-21FF,U+2300-23FF,U+2460-24FF,U+2600-26FF,U+2700-27BF",
    ),
    "NotoSansSymbols2-Regular-subset.woff2": (  # no bold made: ■□▲◆◇●○ ✓✿❀ ⬛ ...
        "truetype/noto/NotoSansSymbols2-Regular.ttf",
        "U+0020,U+00A0,U+2190-21FF,U+2300-23FF,U+25A0-27BF,U+2B00-2BFF",
    ),
}
# Every OpenType feature, but for these: Ethiopic's kerning alone would triple its file (67 KB
# with it, 22 KB without); its syllables are precomposed and its marks keep `mark`/`mkmk`.
FEATURES = {"NotoSansEthiopic-Bold-subset.woff2": "calt,ccmp,mark,mkmk"}
CJK_FILE = "NotoSansCJKsc-Bold-subset.woff2"
EMOJI_FILES = ("emoji-32.png", "emoji-32.txt")
EMOJI_TILE = 32
EMOJI_COLUMNS = 40


def _rows(codec: str, first: int, last: int) -> set[str]:
    """The characters of rows `first`..`last` of a two-byte EUC code (one row: 94 cells)."""
    found = set()
    for high in range(0xA0 + first, 0xA0 + last + 1):
        for low in range(0xA1, 0xFF):
            with contextlib.suppress(UnicodeDecodeError):
                found.add(bytes([high, low]).decode(codec))
    return found


def cjk_text() -> str:
    """The common CJK characters: GB 2312 level 1 (3755 hanzi), JIS X 0208 level 1 (2965
    kanji), KS X 1001's 2350 Hangul syllables, kana, compatibility jamo, CJK punctuation,
    full-width forms and the spaces."""
    chars = _rows("gb2312", 16, 55) | _rows("euc_jp", 16, 47) | _rows("euc_kr", 16, 40)
    blocks = [(0x20, 0x20), (0xA0, 0xA0), (0x3000, 0x30FF), (0x3130, 0x318F), (0xFF01, 0xFF60)]
    chars |= {chr(c) for first, last in blocks for c in range(first, last + 1)}
    return "".join(sorted(c for c in chars if len(c) == 1))


def subset(source: Path, output: str, *options: str) -> None:
    command = [sys.executable, "-m", "fontTools.subset", str(source), *options, *COMMON]
    command.append(f"--output-file={OUT / output}")
    subprocess.run(command, check=True)


def emoji_atlas(source: Path) -> None:
    """Every single-code-point emoji of Noto Color Emoji, 32 pixels square, in one indexed PNG
    (`emoji-32.png`, `EMOJI_COLUMNS` a row) and their code points in order (`emoji-32.txt`).

    Pillow draws colour bitmap fonts only at their one size (109 pixels): scaling a sprite
    down is simpler and smaller than shipping the font (11 MB)."""
    from fontTools.ttLib import TTFont

    skip = {0x20, 0x200D, 0x20E3, 0xFE0F}
    skip |= set(range(0x1F1E6, 0x1F200)) | set(range(0x1F3FB, 0x1F400))  # flags' letters, tones
    skip |= set(range(0xE0000, 0xE0080))  # tags
    codes = sorted(c for c in TTFont(source).getBestCmap() if c > 0xFF and c not in skip)
    face = ImageFont.truetype(str(source), 109)
    rows = -(-len(codes) // EMOJI_COLUMNS)
    atlas = Image.new("RGBA", (EMOJI_COLUMNS * EMOJI_TILE, rows * EMOJI_TILE), (0, 0, 0, 0))
    for index, code in enumerate(codes):
        glyph = Image.new("RGBA", (136, 128), (0, 0, 0, 0))
        ImageDraw.Draw(glyph).text((0, 0), chr(code), font=face, embedded_color=True)
        tile = glyph.resize(
            (EMOJI_TILE, EMOJI_TILE), Image.Resampling.LANCZOS, box=(4, 0, 132, 128)
        )
        row, column = divmod(index, EMOJI_COLUMNS)
        atlas.paste(tile, (column * EMOJI_TILE, row * EMOJI_TILE))
    indexed = atlas.quantize(256, method=Image.Quantize.FASTOCTREE)
    indexed.save(OUT / f"emoji-{EMOJI_TILE}.png", optimize=True)
    lines = "".join(f"{code:04X}\n" for code in codes)
    (OUT / f"emoji-{EMOJI_TILE}.txt").write_text(lines, encoding="ascii")


def main(fonts: str, *only: str) -> None:
    """Build every file into `OUT` from the font folder `fonts`, or only the files named."""
    known = {*SCRIPTS, CJK_FILE, *EMOJI_FILES}
    if unknown := set(only) - known:
        sys.exit(f"not built here: {', '.join(sorted(unknown))}; known: {', '.join(sorted(known))}")
    wanted = set(only) or known
    root = Path(fonts)
    for output, (source, unicodes) in SCRIPTS.items():
        if output in wanted:
            features = FEATURES.get(output, "*")
            subset(root / source, output, f"--unicodes={unicodes}", f"--layout-features={features}")
    if CJK_FILE in wanted:
        cjk = root / "opentype/noto/NotoSansCJK-Bold.ttc"
        text = OUT / "cjk.txt.tmp"
        text.write_text(cjk_text(), encoding="utf-8")
        try:
            subset(cjk, CJK_FILE, "--font-number=2", f"--text-file={text}", "--layout-features=")
        finally:
            text.unlink()
    if wanted & set(EMOJI_FILES):
        emoji_atlas(root / "truetype/noto/NotoColorEmoji.ttf")


if __name__ == "__main__":
    main(sys.argv[1], *sys.argv[2:])
