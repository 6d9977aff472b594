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
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = crate::roll::calendar::civil_from_days(days);
    let dt = Datetime::from_ymd_hms(
        i32::try_from(y).ok()?,
        u8::try_from(m).ok()?,
        u8::try_from(d).ok()?,
        (rem / 3600) as u8,
        (rem % 3600 / 60) as u8,
        (rem % 60) as u8,
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

/// The bytes to append (see [`open_with_outlines`]), or `None` to leave the file alone.
fn outline_update(pdf: &[u8]) -> Option<Vec<u8>> {
    let doc = lopdf::Document::load_mem(pdf).ok()?;
    let (id, generation) = doc.trailer.get(b"Root").ok()?.as_reference().ok()?;
    let catalog = doc.get_dictionary((id, generation)).ok()?;
    if catalog.get(b"Outlines").is_err() || catalog.get(b"PageMode").is_ok() {
        return None;
    }
    let lopdf::xref::XrefEntry::Normal { offset, .. } = *doc.reference_table.get(id)? else {
        return None;
    };
    // The catalog as written: `<id> <gen> obj <<…>> endobj`, with the page mode put first in it.
    let rest = pdf.get(offset as usize..)?;
    let object = &rest[..find(rest, b"endobj")? + b"endobj".len()];
    let open = find(object, b"<<")? + 2;
    // The last trailer (a classic cross-reference table; a stream has none) and where its table starts.
    let tail = &pdf[rfind(pdf, b"trailer")?..];
    let trailer = &tail[find(tail, b"<<")?..rfind(tail, b">>")? + 2];
    let startxref = rfind(pdf, b"startxref")?;
    let prev: u64 = std::str::from_utf8(&pdf[startxref + b"startxref".len()..])
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;

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
