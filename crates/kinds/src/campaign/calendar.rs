//! The campaign calendar: weeks of the rules' 48-week year on the civil calendar (jiff), when each case
//! comes in, and the `YYYY-MM-DD HH:MM` stamps the state file keeps.

use super::*;

/// Month (1–12) and week of the month (1–4) of week `week` (1–48) of the year.
pub fn month_of(week: u32) -> (u32, u32) {
    let w = week.clamp(1, WEEKS_PER_YEAR) - 1;
    (w / WEEKS_PER_MONTH + 1, w % WEEKS_PER_MONTH + 1)
}

/// The days week `week` (1–48) of `year` covers: first and last date (house ruling: 1–7, 8–14, 15–21, 22
/// to the end of the month).
pub fn week_days(year: i32, week: u32) -> Result<(Date, Date), StepProblem> {
    let (month, k) = month_of(week);
    let bad = |e: jiff::Error| StepProblem::NoCalendar {
        year,
        why: Some(e.to_string()),
    };
    let first = Date::new(year as i16, month as i8, (1 + 7 * (k - 1)) as i8).map_err(bad)?;
    let last_day = if k == WEEKS_PER_MONTH {
        first.days_in_month()
    } else {
        (7 * k) as i8
    };
    let last = Date::new(year as i16, month as i8, last_day).map_err(bad)?;
    Ok((first, last))
}

/// `15–21 January` or `22–31 December`.
pub fn week_span(year: i32, week: u32) -> String {
    match week_days(year, week) {
        Ok((a, b)) => format!(
            "{}–{} {}",
            a.day(),
            b.day(),
            MONTH_NAMES[(a.month() - 1) as usize]
        ),
        Err(_) => String::new(),
    }
}

/// `minute` minutes after the start of `date`.
fn at(date: Date, minute: i64) -> Result<DateTime, StepProblem> {
    DateTime::new(
        i64::from(date.year()),
        date.month() as u32,
        date.day() as u32,
        0,
        0,
    )
    .and_then(|t| t.plus_minutes(minute))
    .ok_or_else(|| StepProblem::NoCalendar {
        year: i32::from(date.year()),
        why: None,
    })
}

/// When the case of week `week` comes in: a five-minute mark of the week's days, drawn from stream
/// (`DATE`, week), never before `after` (the case numbered before it).
pub fn case_arrival(
    seed: u64,
    year: i32,
    week: u32,
    after: Option<DateTime>,
) -> Result<DateTime, StepProblem> {
    let (first, last) = week_days(year, week)?;
    let start = at(first, 0)?.minutes;
    let end = at(last, 24 * 60)?.minutes;
    let lo = after.map_or(start, |a| (a.minutes + 5).max(start));
    let lo = lo + (5 - lo.rem_euclid(5)) % 5;
    let marks = (end - lo) / 5;
    if marks <= 0 {
        return Err(StepProblem::WeekFull { week, year });
    }
    let mut rng = stream(seed, DATE, week_index(year, week));
    let k = rand::RngExt::random_range(&mut rng, 0..marks);
    DateTime::from_minutes(lo + 5 * k).ok_or(StepProblem::NoCalendar { year, why: None })
}

/// When the starting cases come in: `count` five-minute marks of the campaign's first day, in order.
pub fn starting_arrivals(seed: u64, year: i32, count: usize) -> Result<Vec<DateTime>, StepProblem> {
    let (first, _) = week_days(year, 1)?;
    let mut rng = stream(seed, START, year as u64);
    let mut marks: Vec<i64> = (0..count)
        .map(|_| rand::RngExt::random_range(&mut rng, 0..24 * 12))
        .collect();
    marks.sort_unstable();
    marks.into_iter().map(|m| at(first, 5 * m)).collect()
}

pub(super) fn stamp(t: DateTime) -> String {
    format!("{} {}", t.date(), t.time())
}

/// Read back a [`stamp`]: `1976-01-17 14:05`.
pub fn parse_stamp(s: &str) -> Option<DateTime> {
    let (d, t) = s.split_once(' ')?;
    let mut dp = d.split('-');
    let (y, m, dd) = (
        dp.next()?.parse().ok()?,
        dp.next()?.parse().ok()?,
        dp.next()?.parse().ok()?,
    );
    let (h, mi) = t.split_once(':')?;
    DateTime::new(y, m, dd, h.parse().ok()?, mi.parse().ok()?)
}
