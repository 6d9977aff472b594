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
