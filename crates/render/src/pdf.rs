//! PDF settings shared by every document: the timestamp. The PDF carries no wall-clock date: its timestamp
//! comes from `SOURCE_DATE_EPOCH` when set, else it has none, so reruns are byte-identical.

use typst::foundations::Datetime;
use typst_pdf::Timestamp;

/// The PDF timestamp: `SOURCE_DATE_EPOCH` (seconds since 1970, UTC) when set and valid, else none.
pub fn source_date_epoch() -> Option<Timestamp> {
    let secs: i64 = std::env::var("SOURCE_DATE_EPOCH")
        .ok()?
        .trim()
        .parse()
        .ok()?;
    let t = jiff::Timestamp::from_second(secs)
        .ok()?
        .to_zoned(jiff::tz::TimeZone::UTC)
        .datetime();
    let dt = Datetime::from_ymd_hms(
        i32::from(t.year()),
        u8::try_from(t.month()).ok()?,
        u8::try_from(t.day()).ok()?,
        u8::try_from(t.hour()).ok()?,
        u8::try_from(t.minute()).ok()?,
        u8::try_from(t.second()).ok()?,
    )?;
    Some(Timestamp::new_utc(dt))
}

/// Make a PDF that has bookmarks open with the bookmarks pane shown (`/PageMode /UseOutlines` in its
/// catalog), as the combined case files do. typst cannot say so itself, so the catalog is rewritten as an
/// incremental update appended to the file: the original bytes stay as they are, the new catalog is the
/// old one's text with the page mode added, and a one-entry cross-reference section points to it. A PDF
/// without bookmarks, one that already sets a page mode, or one this cannot read (a cross-reference
/// stream, say) comes back unchanged.
pub fn open_with_outlines(mut pdf: Vec<u8>) -> Vec<u8> {
    if let Some(update) = outline_update(&pdf) {
        pdf.extend_from_slice(&update);
    }
    pdf
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn rfind(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

/// The whole number that starts `bytes` after any PDF whitespace, and the bytes after it.
fn number(bytes: &[u8]) -> Option<(u64, &[u8])> {
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace())?;
    let rest = &bytes[start..];
    let len = rest
        .iter()
        .position(|b| !b.is_ascii_digit())
        .unwrap_or(rest.len());
    let n = std::str::from_utf8(&rest[..len]).ok()?.parse().ok()?;
    Some((n, &rest[len..]))
}

/// Whether the dictionary text `dict` has the key `/name` (a name ends where a PDF delimiter or
/// whitespace starts, so `/Outlines` does not match `/OutlinesX`).
fn has_key(dict: &[u8], name: &[u8]) -> bool {
    let mut from = 0;
    while let Some(at) = find(&dict[from..], name) {
        let end = from + at + name.len();
        match dict.get(end) {
            Some(b) if !b.is_ascii_whitespace() && !b"/<>[]()%{}".contains(b) => from = end,
            _ => return true,
        }
    }
    false
}

/// The reference `/Root id gen R` in a trailer dictionary.
fn root(trailer: &[u8]) -> Option<(u64, u64)> {
    let mut rest = trailer;
    loop {
        let at = find(rest, b"/Root")? + b"/Root".len();
        rest = &rest[at..];
        if let Some((id, after)) = number(rest)
            && let Some((generation, after)) = number(after)
            && after.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'R')
        {
            return Some((id, generation));
        }
    }
}

/// The byte offset of object `id` in a classic cross-reference table starting at `table` (`xref`, then
/// subsections of a `first count` line and 20-byte entries).
fn xref_offset(table: &[u8], id: u64) -> Option<usize> {
    let mut rest = table.strip_prefix(b"xref")?;
    loop {
        let (first, after) = number(rest)?;
        let (count, after) = number(after)?;
        // The entries start on the next line.
        let line_end = after.iter().position(|&b| b == b'\n')? + 1;
        let entries = &after[line_end..];
        if (first..first + count).contains(&id) {
            let k = usize::try_from(id - first).ok()?;
            let entry = entries.get(k * 20..k * 20 + 20)?;
            if entry.get(17) != Some(&b'n') {
                return None;
            }
            return usize::try_from(number(&entry[..10])?.0).ok();
        }
        rest = entries.get(usize::try_from(count).ok()? * 20..)?;
        if rest.starts_with(b"trailer") {
            return None;
        }
    }
}

/// The bytes to append (see [`open_with_outlines`]), or `None` to leave the file alone. Only the trailer,
/// the cross-reference table and the catalog are read, not the whole file.
fn outline_update(pdf: &[u8]) -> Option<Vec<u8>> {
    let startxref = rfind(pdf, b"startxref")?;
    let (prev, _) = number(&pdf[startxref + b"startxref".len()..])?;
    // The last trailer (a classic cross-reference table; a stream has none).
    let tail = &pdf[rfind(pdf, b"trailer")?..];
    let trailer = &tail[find(tail, b"<<")?..rfind(tail, b">>")? + 2];
    let (id, generation) = root(trailer)?;
    let offset = xref_offset(pdf.get(usize::try_from(prev).ok()?..)?, id)?;
    // The catalog as written: `<id> <gen> obj <<…>> endobj`, with the page mode put first in it.
    let rest = pdf.get(offset..)?;
    let (found, after) = number(rest)?;
    let (found_generation, _) = number(after)?;
    if (found, found_generation) != (id, generation) {
        return None;
    }
    let object = &rest[..find(rest, b"endobj")? + b"endobj".len()];
    if !has_key(object, b"/Outlines") || has_key(object, b"/PageMode") {
        return None;
    }
    let open = find(object, b"<<")? + 2;

    let mut out = Vec::new();
    if pdf.last() != Some(&b'\n') {
        out.push(b'\n');
    }
    let at = pdf.len() + out.len();
    out.extend_from_slice(&object[..open]);
    out.extend_from_slice(b"/PageMode/UseOutlines");
    out.extend_from_slice(&object[open..]);
    out.push(b'\n');
    let xref = pdf.len() + out.len();
    out.extend_from_slice(format!("xref\n{id} 1\n{at:010} {generation:05} n \n").as_bytes());
    out.extend_from_slice(b"trailer\n<</Prev ");
    out.extend_from_slice(prev.to_string().as_bytes());
    out.extend_from_slice(&trailer[2..]);
    out.extend_from_slice(format!("\nstartxref\n{xref}\n%%EOF\n").as_bytes());
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_end_at_delimiters() {
        assert!(has_key(b"<</Type/Catalog/Outlines 5 0 R>>", b"/Outlines"));
        assert!(has_key(b"<</Outlines/x>>", b"/Outlines"));
        assert!(!has_key(b"<</OutlinesX 5 0 R>>", b"/Outlines"));
        assert!(has_key(
            b"<</OutlinesX 1 0 R/Outlines 5 0 R>>",
            b"/Outlines"
        ));
    }

    #[test]
    fn the_root_and_its_offset_are_read_from_the_table() {
        assert_eq!(root(b"<</Size 9/Root 7 0 R/Info 8 0 R>>"), Some((7, 0)));
        assert_eq!(root(b"<</Root/x/Size 9>>"), None);
        let table = b"xref\n0 2\n0000000000 65535 f \n0000000015 00000 n \n5 1\n0000000099 00000 n \ntrailer\n";
        assert_eq!(xref_offset(table, 1), Some(15));
        assert_eq!(xref_offset(table, 5), Some(99));
        assert_eq!(xref_offset(table, 0), None);
        assert_eq!(xref_offset(table, 3), None);
    }
}
