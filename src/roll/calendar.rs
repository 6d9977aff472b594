//! Calendar arithmetic for case dates: proleptic Gregorian dates and minutes, no time zones.
//! Days are counted from 1970-01-01 (the civil-from-days algorithm of Howard Hinnant).

/// A date and time to the minute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct DateTime {
    /// Minutes since 1970-01-01 00:00.
    pub minutes: i64,
}

const DAY: i64 = 24 * 60;

pub const WEEKDAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

/// Days since 1970-01-01 of a civil date.
pub fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date of a day count.
pub fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

impl DateTime {
    pub fn new(y: i64, m: u32, d: u32, hour: u32, minute: u32) -> Self {
        DateTime {
            minutes: days_from_civil(y, m, d) * DAY + i64::from(hour) * 60 + i64::from(minute),
        }
    }

    pub fn ymd(self) -> (i64, u32, u32) {
        civil_from_days(self.minutes.div_euclid(DAY))
    }

    pub fn hm(self) -> (u32, u32) {
        let m = self.minutes.rem_euclid(DAY);
        ((m / 60) as u32, (m % 60) as u32)
    }

    /// `1976-02-11`
    pub fn date(self) -> String {
        let (y, m, d) = self.ymd();
        format!("{y:04}-{m:02}-{d:02}")
    }

    /// `08:40`
    pub fn time(self) -> String {
        let (h, m) = self.hm();
        format!("{h:02}:{m:02}")
    }

    pub fn weekday(self) -> &'static str {
        // 1970-01-01 was a Thursday.
        WEEKDAYS[(self.minutes.div_euclid(DAY) + 3).rem_euclid(7) as usize]
    }

    pub fn minus_minutes(self, minutes: i64) -> Self {
        DateTime {
            minutes: self.minutes - minutes,
        }
    }

    pub fn plus_minutes(self, minutes: i64) -> Self {
        DateTime {
            minutes: self.minutes + minutes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_round_trip_and_know_their_weekday() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(civil_from_days(days_from_civil(1976, 2, 29)), (1976, 2, 29));
        let t = DateTime::new(1976, 7, 4, 9, 5);
        assert_eq!(
            (t.date(), t.time(), t.weekday()),
            ("1976-07-04".to_owned(), "09:05".to_owned(), "Sunday")
        );
        assert_eq!(DateTime::new(1976, 1, 1, 0, 0).weekday(), "Thursday");
        assert_eq!(t.minus_minutes(10 * 60).date(), "1976-07-03");
        for z in [-800_000, -1, 0, 59, 60, 11_016, 2_000_000] {
            let (y, m, d) = civil_from_days(z);
            assert_eq!(days_from_civil(y, m, d), z);
        }
    }
}
