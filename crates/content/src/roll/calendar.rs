//! Case dates and times to the minute, in the proleptic Gregorian calendar with no time zones. The rolls
//! work in minutes (a five-minute mark of a slot of the year, so many hours before it); jiff, which the
//! campaign calendar uses too, turns a count of minutes into the civil date, time and weekday. A
//! [`DateTime`] only exists inside jiff's years −9999 to 9999, so printing one never fails.

use jiff::civil;

/// A date and time to the minute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct DateTime {
    /// Minutes since 1970-01-01 00:00 (what the rolls add and subtract).
    pub minutes: i64,
    /// The same moment on the calendar.
    civil: civil::DateTime,
}

const DAY: i64 = 24 * 60;
const EPOCH: civil::Date = civil::date(1970, 1, 1);

impl DateTime {
    /// The moment at `minutes` since 1970-01-01 00:00; none outside the years −9999 to 9999.
    pub fn from_minutes(minutes: i64) -> Option<Self> {
        let days = jiff::Span::new().try_days(minutes.div_euclid(DAY)).ok()?;
        let date = EPOCH.checked_add(days).ok()?;
        let m = minutes.rem_euclid(DAY);
        let civil = date.at((m / 60) as i8, (m % 60) as i8, 0, 0);
        Some(DateTime { minutes, civil })
    }

    /// The moment of a calendar date and time; none for a date that does not exist (`1976-02-30`), an
    /// hour or minute out of range, or a year outside −9999 to 9999.
    pub fn new(y: i64, m: u32, d: u32, hour: u32, minute: u32) -> Option<Self> {
        let date = civil::Date::new(
            i16::try_from(y).ok()?,
            i8::try_from(m).ok()?,
            i8::try_from(d).ok()?,
        )
        .ok()?;
        if hour > 23 || minute > 59 {
            return None;
        }
        let days = EPOCH.until((jiff::Unit::Day, date)).ok()?.get_days();
        DateTime::from_minutes(i64::from(days) * DAY + i64::from(hour * 60 + minute))
    }

    /// `1976-02-11`
    pub fn date(self) -> String {
        let d = self.civil.date();
        format!("{:04}-{:02}-{:02}", d.year(), d.month(), d.day())
    }

    /// `08:40`
    pub fn time(self) -> String {
        format!("{:02}:{:02}", self.civil.hour(), self.civil.minute())
    }

    pub fn weekday(self) -> &'static str {
        use jiff::civil::Weekday::*;
        match self.civil.weekday() {
            Monday => "Monday",
            Tuesday => "Tuesday",
            Wednesday => "Wednesday",
            Thursday => "Thursday",
            Friday => "Friday",
            Saturday => "Saturday",
            Sunday => "Sunday",
        }
    }

    /// `minutes` earlier; none if that leaves the calendar.
    pub fn minus_minutes(self, minutes: i64) -> Option<Self> {
        DateTime::from_minutes(self.minutes.checked_sub(minutes)?)
    }

    /// `minutes` later; none if that leaves the calendar.
    pub fn plus_minutes(self, minutes: i64) -> Option<Self> {
        DateTime::from_minutes(self.minutes.checked_add(minutes)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_know_their_weekday_and_add_up() {
        let epoch = DateTime::new(1970, 1, 1, 0, 0).unwrap();
        assert_eq!((epoch.minutes, epoch.weekday()), (0, "Thursday"));
        let t = DateTime::new(1976, 7, 4, 9, 5).unwrap();
        assert_eq!(
            (t.date(), t.time(), t.weekday()),
            ("1976-07-04".to_owned(), "09:05".to_owned(), "Sunday")
        );
        assert_eq!(t.minutes, 3_421_985);
        assert_eq!(
            DateTime::new(1976, 1, 1, 0, 0).unwrap().weekday(),
            "Thursday"
        );
        assert_eq!(t.minus_minutes(10 * 60).unwrap().date(), "1976-07-03");
        assert_eq!(t.plus_minutes(8 * DAY).unwrap().date(), "1976-07-12");
        let leap = DateTime::new(1976, 2, 29, 23, 59).unwrap();
        assert_eq!(leap.plus_minutes(1).unwrap().date(), "1976-03-01");
        // before 1970: minutes count down, and the time of day stays positive
        let old = DateTime::new(1969, 12, 31, 23, 0).unwrap();
        assert_eq!(
            (old.minutes, old.date(), old.time()),
            (-60, "1969-12-31".to_owned(), "23:00".to_owned())
        );
        for minutes in [-400_000_000, -1, 0, 59, 60, 11_016 * DAY, 2_000_000_000] {
            let t = DateTime::from_minutes(minutes).unwrap();
            let back = DateTime::new(
                i64::from(t.civil.year()),
                t.civil.month() as u32,
                t.civil.day() as u32,
                t.civil.hour() as u32,
                t.civil.minute() as u32,
            );
            assert_eq!(back, Some(t));
        }
    }

    #[test]
    fn impossible_moments_are_none() {
        assert_eq!(DateTime::new(1976, 2, 30, 0, 0), None);
        assert_eq!(DateTime::new(1977, 2, 29, 0, 0), None);
        assert_eq!(DateTime::new(1976, 13, 1, 0, 0), None);
        assert_eq!(DateTime::new(1976, 1, 1, 24, 0), None);
        assert_eq!(DateTime::new(1976, 1, 1, 0, 60), None);
        assert_eq!(DateTime::new(10_000, 1, 1, 0, 0), None);
        let last = DateTime::new(9999, 12, 31, 23, 59).unwrap();
        assert_eq!(last.plus_minutes(1), None);
        let first = DateTime::new(-9999, 1, 1, 0, 0).unwrap();
        assert_eq!(first.minus_minutes(1), None);
        assert_eq!(first.minus_minutes(i64::MAX), None);
        assert_eq!(DateTime::from_minutes(i64::MIN), None);
    }
}
