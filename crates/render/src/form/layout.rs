//! A text field's value laid out for its appearance stream, as the print copy typesets it: in Courier
//! Prime with the templates' fallbacks (Noto Naskh Arabic, Noto Serif Hebrew, Noto Serif, Noto Emoji) chosen
//! per grapheme, shaped with rustybuzz (joined Arabic, placed marks), wrapped at spaces (or inside a word too
//! long for a line), each line put in visual order with unicode-bidi (base direction left to right, as the
//! sheets' `lang: "en"` gives the print copy), at the print copy's size or the first of its smaller sizes
//! that fits.

use std::collections::BTreeSet;
use std::ops::Range;
use std::sync::OnceLock;

use rustybuzz::{BufferClusterLevel, Direction, UnicodeBuffer};
use unicode_bidi::{BidiInfo, Level};
use unicode_segmentation::UnicodeSegmentation;

use crate::fonts::{FONTS, invisible};

/// One font a value can be drawn in.
pub(crate) struct Face {
    /// The font file.
    pub data: &'static [u8],
    /// Its PostScript name (the PDF `/BaseFont` after the subset tag).
    pub ps_name: String,
    /// The name appearance streams' resources give it.
    pub resource: &'static str,
    pub shaper: rustybuzz::Face<'static>,
    pub upem: f64,
}

impl std::ops::Deref for Face {
    type Target = ttf_parser::Face<'static>;
    fn deref(&self) -> &Self::Target {
        &self.shaper
    }
}

/// The appearance fonts in fallback order: the sheets' typing font, then the fallbacks in the order
/// `templates/common/style.typ` lists them (`type-font`). All are TrueType outlines (CIDFontType2).
const FACE_FILES: [(&str, &str); 5] = [
    ("courier-prime/CourierPrime-Regular.ttf", "Cour"),
    ("noto-naskh-arabic/NotoNaskhArabic-Regular.ttf", "Arab"),
    ("noto-serif-hebrew/NotoSerifHebrew-Regular.ttf", "Hebr"),
    ("noto-serif/NotoSerif-Regular.ttf", "Serif"),
    ("noto-emoji/NotoEmoji-Regular.ttf", "Emoji"),
];

/// The appearance fonts, read once per process.
pub(crate) fn faces() -> Result<&'static [Face], String> {
    static FACES: OnceLock<Result<Vec<Face>, String>> = OnceLock::new();
    FACES
        .get_or_init(|| {
            FACE_FILES
                .iter()
                .map(|&(path, resource)| {
                    let file = FONTS
                        .iter()
                        .find(|f| f.path == path)
                        .ok_or_else(|| format!("the font {path} is not embedded"))?;
                    let shaper = rustybuzz::Face::from_slice(file.data, 0)
                        .ok_or_else(|| format!("cannot read the font {path}"))?;
                    let ps_name = shaper
                        .names()
                        .into_iter()
                        .filter(|n| n.name_id == ttf_parser::name_id::POST_SCRIPT_NAME)
                        .find_map(|n| n.to_string())
                        .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_graphic()))
                        .unwrap_or_else(|| resource.to_owned());
                    let upem = f64::from(shaper.units_per_em());
                    if shaper.tables().glyf.is_none() {
                        return Err(format!("{path} has no TrueType outlines"));
                    }
                    Ok(Face {
                        data: file.data,
                        ps_name,
                        resource,
                        shaper,
                        upem,
                    })
                })
                .collect()
        })
        .as_deref()
        .map_err(Clone::clone)
}

/// One glyph to draw: its face (index into [`faces`]), glyph id, the characters it stands for (empty for
/// the second and later glyphs of one character), and its advance and offsets in em.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Glyph {
    pub face: usize,
    pub gid: u16,
    pub text: String,
    pub advance: f64,
    pub dx: f64,
    pub dy: f64,
}

/// One line: the baseline's distance from the box's bottom edge (pt) and the glyphs in visual order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Line {
    pub baseline: f64,
    pub glyphs: Vec<Glyph>,
}

/// A laid-out value: font size (pt), left edge of every line (pt) and the lines top to bottom.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Layout {
    pub size: f64,
    pub x: f64,
    pub lines: Vec<Line>,
}

/// Horizontal and vertical inset of the text inside the box (the print copy's `fitted` block insets).
pub(crate) const PAD_X: f64 = 2.0;
pub(crate) const PAD_Y: f64 = 1.0;
/// The gap between one line's baseline and the next line's cap height, in em (the print copy's leading).
const LEADING: f64 = 0.3;

/// The sizes the print copy tries, largest first (`fitted` in `templates/common/sheet.typ`).
fn sizes(base: f64) -> Vec<f64> {
    let mut out = vec![base, base * 0.85, base * 0.72, base * 0.6];
    out.extend(
        [5.5, 4.5, 3.5, 2.8, 2.2, 1.6, 1.2]
            .into_iter()
            .filter(|&s| s < base * 0.6),
    );
    out
}

/// Lay `value` out in a box `w` × `h` pt, starting from the print copy's size `base` and shrinking through
/// its sizes until the lines fit (descenders included); at the smallest size what does not fit is
/// clipped at the bottom. The lines stand in the middle of the box, or start at its top in an `area`.
pub(crate) fn layout(value: &str, w: f64, h: f64, base: f64, area: bool) -> Result<Layout, String> {
    let faces = faces()?;
    let main = &faces[0];
    let em = |v: i16| f64::from(v) / main.upem;
    let cap = em(main.capital_height().unwrap_or(main.ascender()));
    let desc = -em(main.descender());
    let space = main
        .glyph_index(' ')
        .and_then(|g| main.glyph_hor_advance(g))
        .map_or(0.6, |a| f64::from(a) / main.upem);
    if value.trim().is_empty() {
        return Ok(Layout {
            size: base,
            x: PAD_X,
            lines: Vec::new(),
        });
    }
    // Each paragraph with its runs of whitespace made single spaces (as the print copy collapses them).
    let paras: Vec<String> = value
        .split('\n')
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    let words: Vec<Vec<Word>> = paras
        .iter()
        .map(|p| {
            let mut at = 0;
            p.split(' ')
                .filter(|w| !w.is_empty())
                .map(|w| {
                    let start = p[at..].find(w).map_or(at, |i| at + i);
                    at = start + w.len();
                    Word {
                        start,
                        graphemes: grapheme_advances(faces, w),
                    }
                })
                .collect()
        })
        .collect();
    // Lines of Courier Prime stand as in the print copy: capitals and the leading between them. Glyphs of
    // the fallbacks (Arabic above all) reach higher and lower: then the lines stand far enough apart that
    // their ink does not touch.
    let (mut top, mut bot) = (cap, desc);
    let mut pitch_em = cap + LEADING;
    let mut fallback = false;
    for p in &paras {
        for (r, face) in font_runs(p, faces) {
            if face == 0 {
                continue;
            }
            for g in shape(faces, face, &p[r], None) {
                if let Some(b) = faces[face].glyph_bounding_box(ttf_parser::GlyphId(g.gid)) {
                    let up = faces[face].upem;
                    top = top.max(f64::from(b.y_max) / up + g.dy);
                    bot = bot.max(-f64::from(b.y_min) / up - g.dy);
                    fallback = true;
                }
            }
        }
    }
    if fallback {
        pitch_em = pitch_em.max(top + bot + 0.05);
    }
    let (inner_w, inner_h) = ((w - 2.0 * PAD_X).max(0.5), h - 2.0 * PAD_Y);
    let block = |n: usize, s: f64| s * (top + (n as f64 - 1.0) * pitch_em + bot);
    let all = sizes(base);
    let mut chosen = None;
    for &s in &all {
        // (paragraph, byte range of the line in it)
        let lines: Vec<(usize, Range<usize>)> = words
            .iter()
            .enumerate()
            .flat_map(|(i, p)| wrap(p, space, inner_w / s).into_iter().map(move |r| (i, r)))
            .collect();
        let fits = block(lines.len(), s) <= inner_h;
        if fits || Some(&s) == all.last() {
            chosen = Some((s, lines));
            break;
        }
    }
    let Some((size, lines)) = chosen else {
        return Err("no font size to lay the value out at".into());
    };
    let n = lines.len() as f64;
    let pitch = size * pitch_em;
    // From the top of the first line to the last baseline centred in the box, raised if the last line's
    // descenders would cross the inset; a block taller than the box starts at its top (the end is clipped).
    let caps = size * top + (n - 1.0) * pitch;
    let mut first = h - (h - caps) / 2.0 - top * size;
    let last = first - (n - 1.0) * pitch;
    if last - bot * size < PAD_Y {
        first += PAD_Y - (last - bot * size);
    }
    if area || block(lines.len(), size) > inner_h {
        first = h - PAD_Y - top * size;
    }
    // Directions are resolved over a whole paragraph, then each line is put in visual order (UAX #9).
    let bidi: Vec<BidiInfo> = paras
        .iter()
        .map(|p| BidiInfo::new(p, Some(Level::ltr())))
        .collect();
    Ok(Layout {
        size,
        x: PAD_X,
        lines: lines
            .into_iter()
            .enumerate()
            .map(|(i, (p, range))| Line {
                baseline: first - i as f64 * pitch,
                glyphs: shape_line(faces, &bidi[p], range),
            })
            .collect(),
    })
}

/// A word: where it starts in its paragraph (bytes) and the advance of each of its graphemes (byte range
/// in the word, em).
struct Word {
    start: usize,
    graphemes: Vec<(Range<usize>, f64)>,
}

/// The lines one paragraph (words one space apart) wraps into, `max` em wide, as byte ranges of the
/// paragraph: at spaces, or inside a word too long for a line (between graphemes, never splitting a letter
/// from its marks). An empty paragraph is one empty line.
fn wrap(words: &[Word], space: f64, max: f64) -> Vec<Range<usize>> {
    let mut lines = Vec::new();
    let mut line: Option<Range<usize>> = None;
    let mut width = 0.0;
    for word in words {
        let mut rest: &[(Range<usize>, f64)] = &word.graphemes;
        let piece = |g: &[(Range<usize>, f64)]| match (g.first(), g.last()) {
            (Some(a), Some(b)) => word.start + a.0.start..word.start + b.0.end,
            _ => word.start..word.start,
        };
        while !rest.is_empty() {
            let total: f64 = rest.iter().map(|(_, a)| a).sum();
            match &mut line {
                None if total <= max => {
                    line = Some(piece(rest));
                    width = total;
                    break;
                }
                None => {
                    // Too long for any line: as many graphemes as fit (at least one) on this line.
                    let mut n = 0;
                    let mut acc = 0.0;
                    while n < rest.len() && (n == 0 || acc + rest[n].1 <= max) {
                        acc += rest[n].1;
                        n += 1;
                    }
                    lines.push(piece(&rest[..n]));
                    rest = &rest[n..];
                }
                Some(l) if width + space + total <= max => {
                    l.end = piece(rest).end;
                    width += space + total;
                    break;
                }
                Some(_) => {
                    lines.extend(line.take());
                    width = 0.0;
                }
            }
        }
    }
    lines.push(line.unwrap_or(0..0));
    lines
}

/// Whether `face` has a glyph for `c`.
fn covers(face: &Face, c: char) -> bool {
    face.glyph_index(c).is_some()
}

/// The face each stretch of `s` is drawn in, per grapheme: the first face (in fallback order) with a glyph
/// for every visible character of it, else the first with its first character, else Courier Prime (which
/// draws its empty box). Spaces and joiners stay in the face before them when it has them. Adjacent
/// graphemes of one face form one stretch.
fn font_runs(s: &str, faces: &[Face]) -> Vec<(Range<usize>, usize)> {
    let mut out: Vec<(Range<usize>, usize)> = Vec::new();
    let mut prev: Option<usize> = None;
    for (i, g) in s.grapheme_indices(true) {
        let visible: Vec<char> = g.chars().filter(|&c| !invisible(c)).collect();
        let face = match visible.first() {
            None => prev
                .filter(|&p| {
                    g.chars()
                        .filter(|c| c.is_whitespace())
                        .all(|c| covers(&faces[p], c))
                })
                .unwrap_or(0),
            Some(&c0) => faces
                .iter()
                .position(|f| visible.iter().all(|&c| covers(f, c)))
                .or_else(|| faces.iter().position(|f| covers(f, c0)))
                .unwrap_or(0),
        };
        prev = Some(face);
        match out.last_mut() {
            Some((r, f)) if *f == face && r.end == i => r.end = i + g.len(),
            _ => out.push((i..i + g.len(), face)),
        }
    }
    out
}

/// Shape `text` in face `face`; `rtl` forces the direction (else it is guessed from the script). Glyphs
/// come in visual order; each glyph's text is its cluster's characters, given to the logically first glyph
/// of the cluster.
fn shape(faces: &[Face], face: usize, text: &str, rtl: Option<bool>) -> Vec<Glyph> {
    shape_clustered(faces, face, text, rtl).0
}

/// [`shape`], with each glyph's cluster (byte offset in `text`).
fn shape_clustered(
    faces: &[Face],
    face: usize,
    text: &str,
    rtl: Option<bool>,
) -> (Vec<Glyph>, Vec<usize>) {
    let f = &faces[face];
    let mut buf = UnicodeBuffer::new();
    buf.push_str(text);
    buf.set_cluster_level(BufferClusterLevel::Characters);
    buf.guess_segment_properties();
    if let Some(rtl) = rtl {
        buf.set_direction(if rtl {
            Direction::RightToLeft
        } else {
            Direction::LeftToRight
        });
    }
    let backwards = buf.direction() == Direction::RightToLeft;
    let out = rustybuzz::shape(&f.shaper, &[], buf);
    let (infos, pos) = (out.glyph_infos(), out.glyph_positions());
    let starts: BTreeSet<usize> = infos.iter().map(|i| i.cluster as usize).collect();
    let n = infos.len();
    let mut texts = vec![String::new(); n];
    let mut given = BTreeSet::new();
    let order: Vec<usize> = if backwards {
        (0..n).rev().collect()
    } else {
        (0..n).collect()
    };
    for i in order {
        let c = infos[i].cluster as usize;
        if given.insert(c) {
            let end = starts.range(c + 1..).next().copied().unwrap_or(text.len());
            texts[i] = text.get(c..end).unwrap_or_default().to_owned();
        }
    }
    let glyphs = infos
        .iter()
        .zip(pos)
        .zip(texts)
        .map(|((info, p), text)| Glyph {
            face,
            gid: u16::try_from(info.glyph_id).unwrap_or(0),
            text,
            advance: f64::from(p.x_advance) / f.upem,
            dx: f64::from(p.x_offset) / f.upem,
            dy: f64::from(p.y_offset) / f.upem,
        })
        .collect();
    (glyphs, infos.iter().map(|i| i.cluster as usize).collect())
}

/// The advance (em) of each grapheme of a word, shaped as drawn (byte range in the word, advance).
fn grapheme_advances(faces: &[Face], word: &str) -> Vec<(Range<usize>, f64)> {
    let mut out: Vec<(Range<usize>, f64)> = word
        .grapheme_indices(true)
        .map(|(i, g)| (i..i + g.len(), 0.0))
        .collect();
    for (run, face) in font_runs(word, faces) {
        let (glyphs, clusters) = shape_clustered(faces, face, &word[run.clone()], None);
        for (g, c) in glyphs.iter().zip(clusters) {
            let at = run.start + c;
            if let Some(slot) = out.iter_mut().find(|(r, _)| r.contains(&at)) {
                slot.1 += g.advance;
            }
        }
    }
    out
}

/// One line's glyphs in visual order: the paragraph's bidi runs within the line (paragraph direction left
/// to right), each split by face and shaped in its direction; a right-to-left run's faces go right to left.
fn shape_line(faces: &[Face], bidi: &BidiInfo, line: Range<usize>) -> Vec<Glyph> {
    let mut out = Vec::new();
    if line.is_empty() {
        return out;
    }
    for para in &bidi.paragraphs {
        let range = para.range.start.max(line.start)..para.range.end.min(line.end);
        if range.is_empty() {
            continue;
        }
        let (levels, runs) = bidi.visual_runs(para, range);
        for run in runs {
            let rtl = levels.get(run.start).is_some_and(|l| l.is_rtl());
            let text = &bidi.text[run.clone()];
            let mut parts = font_runs(text, faces);
            if rtl {
                parts.reverse();
            }
            for (r, face) in parts {
                out.extend(shape(faces, face, &text[r], Some(rtl)));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_of(glyphs: &[Glyph]) -> String {
        glyphs.iter().map(|g| g.text.as_str()).collect()
    }

    #[test]
    fn fallbacks_follow_the_templates() {
        let faces = faces().unwrap();
        let face_of = |s: &str| {
            font_runs(s, faces)
                .into_iter()
                .map(|(_, f)| faces[f].resource)
                .collect::<Vec<_>>()
        };
        assert_eq!(face_of("Ana"), ["Cour"]);
        assert_eq!(face_of("Жанна"), ["Serif"]);
        assert_eq!(face_of("دوست"), ["Arab"]);
        assert_eq!(face_of("דוד"), ["Hebr"]);
        // The space after a Hebrew word stays in its face.
        assert_eq!(face_of("Ana דוד כהן"), ["Cour", "Hebr"]);
    }

    #[test]
    fn right_to_left_lines_come_in_visual_order() {
        let faces = faces().unwrap();
        let line = |s: &str| shape_line(faces, &BidiInfo::new(s, Some(Level::ltr())), 0..s.len());
        let g = line("דוד כהן");
        assert_eq!(text_of(&g), "ןהכ דוד");
        // A number after a Hebrew word reads on from it, right to left: it stands to the word's left.
        let g = line("Ana כהן 12");
        assert_eq!(text_of(&g), "Ana 12 ןהכ");
        // Directions come from the whole paragraph: the comma between two Arabic words stays with the
        // first even when the line ends there.
        let p = "دليل، والمفتش";
        let bidi = BidiInfo::new(p, Some(Level::ltr()));
        let first = shape_line(faces, &bidi, 0..p.find(' ').unwrap());
        assert_eq!(text_of(&first), "،ليلد");
        // Every glyph of an Arabic name carries its letters; the two mims are different forms.
        let g = line("محمد");
        let mims: Vec<u16> = g.iter().filter(|g| g.text == "م").map(|g| g.gid).collect();
        assert_eq!(mims.len(), 2);
        assert_ne!(mims[0], mims[1]);
    }

    #[test]
    fn long_words_split_and_short_ones_move_whole() {
        let faces = faces().unwrap();
        let lines = |s: &str| -> Vec<String> {
            let mut at = 0;
            let words: Vec<Word> = s
                .split(' ')
                .map(|w| {
                    let word = Word {
                        start: at,
                        graphemes: grapheme_advances(faces, w),
                    };
                    at += w.len() + 1;
                    word
                })
                .collect();
            wrap(&words, 0.6, 9.6)
                .into_iter()
                .map(|r| s[r].to_owned())
                .collect()
        };
        // Courier Prime: 0.6 em a character, so 9.6 em hold 16 characters.
        assert_eq!(
            lines("a boxer who went the distance"),
            ["a boxer who went", "the distance"]
        );
        assert_eq!(
            lines("abcdefghijklmnopqrstuvwxyz"),
            ["abcdefghijklmnop", "qrstuvwxyz"]
        );
    }

    #[test]
    fn values_stand_in_the_middle_and_notes_start_at_the_top() {
        let main = &faces().unwrap()[0];
        let cap = f64::from(main.capital_height().unwrap()) / main.upem;
        let desc = -f64::from(main.descender()) / main.upem;
        // A 9 mm box: as much room above the capitals as below the baseline, and the descenders clear of
        // the inset.
        let l = layout("13", 60.0, 25.5, 14.0, false).unwrap();
        let b = l.lines[0].baseline;
        assert!((25.5 - (b + 14.0 * cap) - b).abs() < 1e-9, "baseline {b}");
        assert!(b - 14.0 * desc >= PAD_Y);
        // A box just tall enough for the capitals and descenders at 14 pt: centred capitals would put the
        // descenders into the inset; they are raised until they clear it.
        let h = 14.0 * (cap + 2.0 * desc) + 1.0;
        let l = layout("gyp", 60.0, h, 14.0, false).unwrap();
        assert_eq!(l.size, 14.0);
        assert!((l.lines[0].baseline - 14.0 * desc - PAD_Y).abs() < 1e-9);
        // Notes: the first line's capitals at the top inset, the next line one pitch lower.
        let l = layout("first line\nsecond", 300.0, 200.0, 10.0, true).unwrap();
        assert_eq!(l.size, 10.0);
        assert!((l.lines[0].baseline - (200.0 - PAD_Y - 10.0 * cap)).abs() < 1e-9);
        assert!((l.lines[0].baseline - l.lines[1].baseline - 10.0 * (cap + LEADING)).abs() < 1e-9);
    }

    #[test]
    fn the_print_copys_size_when_it_fits() {
        // A 9 mm box: 14 pt fits; a long value shrinks through the print copy's sizes.
        let l = layout("13", 60.0, 25.5, 14.0, false).unwrap();
        assert_eq!(l.size, 14.0);
        assert_eq!(l.lines.len(), 1);
        let l = layout(&"word ".repeat(40), 120.0, 25.5, 14.0, false).unwrap();
        assert!(l.size < 14.0 && sizes(14.0).contains(&l.size), "{}", l.size);
    }
}
