//! The Call of Cthulhu-style rolls: a percentile skill roll with bonus and penalty dice (Percentile), and a sum of dice read against a threshold (Sum).

use super::*;

/// A percentile skill roll (d100 under the skill, 1–100, with 00 and 0 read as 100), with bonus (positive)
/// or penalty (negative) dice on the tens. Outcome: 0 failure, 1 regular, 2 hard, 3 extreme success.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Percentile {
    pub skill: u32,
    pub bonus: i32,
}

impl Percentile {
    fn level(&self, v: u32) -> i64 {
        if v <= self.skill / 5 {
            3
        } else if v <= self.skill / 2 {
            2
        } else if v <= self.skill {
            1
        } else {
            0
        }
    }

    /// The value read from a units die and tens dice.
    fn value(&self, units: u32, tens: &[u32]) -> u32 {
        let read = |t: u32| {
            if t == 0 && units == 0 {
                100
            } else {
                10 * t + units
            }
        };
        let vals = tens.iter().map(|&t| read(t));
        if self.bonus >= 0 {
            vals.min().unwrap_or(100)
        } else {
            vals.max().unwrap_or(100)
        }
    }

    fn tens_dice(&self) -> u32 {
        1 + self.bonus.unsigned_abs()
    }
}

impl Check for Percentile {
    fn describe(&self) -> String {
        let dice = match self.bonus {
            0 => String::new(),
            1 => " with a bonus die".into(),
            -1 => " with a penalty die".into(),
            b if b > 0 => format!(" with {b} bonus dice"),
            b => format!(" with {} penalty dice", -b),
        };
        format!(
            "d100 against {}%{dice} (faces: units, then tens)",
            self.skill
        )
    }

    fn outcomes(&self) -> Vec<(P, i64)> {
        let k = self.tens_dice();
        let total = 10u64.pow(1 + k);
        let mut counts = [0u64; 4];
        for code in 0..total {
            let units = (code % 10) as u32;
            let mut rest = code / 10;
            let tens: Vec<u32> = (0..k)
                .map(|_| {
                    let t = (rest % 10) as u32;
                    rest /= 10;
                    t
                })
                .collect();
            counts[self.level(self.value(units, &tens)) as usize] += 1;
        }
        (0..4)
            .rev()
            .filter(|&l| counts[l] > 0)
            .map(|l| {
                (
                    P::new(BigInt::from(counts[l]), BigInt::from(total)),
                    l as i64,
                )
            })
            .collect()
    }

    fn roll(&self, rng: &mut ChaCha20Rng) -> (Vec<i64>, i64) {
        // Faces: the units die first, then each tens die (0-9).
        let units = rng.random_range(0..10u32);
        let tens: Vec<u32> = (0..self.tens_dice())
            .map(|_| rng.random_range(0..10u32))
            .collect();
        let mut faces = vec![i64::from(units)];
        faces.extend(tens.iter().map(|&t| i64::from(t)));
        (faces, self.level(self.value(units, &tens)))
    }

    fn judge(&self, faces: &[i64]) -> Option<i64> {
        if faces.len() != 1 + self.tens_dice() as usize
            || faces.iter().any(|f| !(0..=9).contains(f))
        {
            return None;
        }
        let tens: Vec<u32> = faces[1..].iter().map(|&t| t as u32).collect();
        Some(self.level(self.value(faces[0] as u32, &tens)))
    }

    fn outcome_label(&self, outcome: i64) -> String {
        match outcome {
            3 => "extreme success",
            2 => "hard success",
            1 => "regular success",
            _ => "failure",
        }
        .into()
    }
}

/// The sum of `n` dice of `sides` sides (a ram: Build × 1D10). With `at_least`, the outcome is 1 when
/// the sum reaches it and 0 otherwise (all a ram against a barrier's hit points needs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sum {
    pub n: u32,
    pub sides: u32,
    pub at_least: Option<i64>,
}

impl Sum {
    fn read(&self, sum: i64) -> i64 {
        match self.at_least {
            Some(t) => i64::from(sum >= t),
            None => sum,
        }
    }
}

impl Check for Sum {
    fn describe(&self) -> String {
        match self.at_least {
            Some(t) => format!("{}d{} against {t}", self.n, self.sides),
            None => format!("{}d{}", self.n, self.sides),
        }
    }

    fn outcomes(&self) -> Vec<(P, i64)> {
        let mut ways: Vec<u64> = vec![1];
        for _ in 0..self.n {
            let mut next = vec![0u64; ways.len() + self.sides as usize];
            for (s, &w) in ways.iter().enumerate() {
                for f in 1..=self.sides as usize {
                    next[s + f] += w;
                }
            }
            ways = next;
        }
        let total: u64 = ways.iter().sum();
        let mut by: Vec<(u64, i64)> = Vec::new();
        for (s, &w) in ways.iter().enumerate().filter(|(_, w)| **w > 0) {
            let o = self.read(s as i64);
            match by.iter_mut().find(|(_, x)| *x == o) {
                Some((c, _)) => *c += w,
                None => by.push((w, o)),
            }
        }
        by.into_iter()
            .map(|(w, o)| (P::new(BigInt::from(w), BigInt::from(total)), o))
            .collect()
    }

    fn roll(&self, rng: &mut ChaCha20Rng) -> (Vec<i64>, i64) {
        let faces = roll_dice(rng, self.n, self.sides);
        let s = self.read(faces.iter().sum());
        (faces, s)
    }

    fn judge(&self, faces: &[i64]) -> Option<i64> {
        are_dice(faces, self.n, self.sides).then(|| self.read(faces.iter().sum()))
    }

    fn outcome_label(&self, outcome: i64) -> String {
        match (self.at_least, outcome) {
            (Some(t), 1) => format!("{t} or more"),
            (Some(t), _) => format!("less than {t}"),
            (None, o) => o.to_string(),
        }
    }
}
