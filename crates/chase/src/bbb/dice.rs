//! Block by Block's rolls: d6s counting 6s with advantage or disadvantage (SixesCheck), and one plain die (Die).

use super::*;

/// Advantage, disadvantage or neither (they cancel, and never stack).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Edge {
    Normal,
    Advantage,
    Disadvantage,
}

impl Edge {
    pub(super) fn of(advantage: bool, disadvantage: bool) -> Edge {
        match (advantage, disadvantage) {
            (true, false) => Edge::Advantage,
            (false, true) => Edge::Disadvantage,
            _ => Edge::Normal,
        }
    }
}

/// A Block by Block ability roll when only success matters: `dice` d6s (one more with advantage or
/// disadvantage, the lowest or highest set aside), a success if a kept die shows 6. Outcome 1 success,
/// 0 failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SixesCheck {
    pub dice: u32,
    pub edge: Edge,
}

impl SixesCheck {
    fn rolled(&self) -> u32 {
        match self.edge {
            Edge::Normal => self.dice,
            _ => self.dice + 1,
        }
    }

    /// Sixes needed among the dice rolled: with disadvantage the highest die (a 6 if any) is set aside.
    fn sixes_needed(&self) -> usize {
        if self.edge == Edge::Disadvantage {
            2
        } else {
            1
        }
    }
}

impl Check for SixesCheck {
    fn describe(&self) -> String {
        let n = self.dice;
        let dice = if n == 1 {
            "1 die".to_string()
        } else {
            format!("{n} dice")
        };
        match self.edge {
            Edge::Normal => format!("{dice}, a 6 succeeds"),
            Edge::Advantage => format!(
                "{dice} with advantage (roll {}, set the lowest aside), a 6 succeeds",
                n + 1
            ),
            Edge::Disadvantage => format!(
                "{dice} with disadvantage (roll {}, set the highest aside), a 6 succeeds",
                n + 1
            ),
        }
    }

    fn outcomes(&self) -> Vec<(P, i64)> {
        let m = self.rolled();
        let six = P::new(BigInt::one(), BigInt::from(6));
        let not = P::new(BigInt::from(5), BigInt::from(6));
        let pow = |p: &P, k: u32| (0..k).fold(P::one(), |a, _| a * p);
        // P(no six) and P(exactly one six) among m dice.
        let none = pow(&not, m);
        let one = P::from_integer(BigInt::from(m)) * &six * pow(&not, m - 1);
        let fail = if self.sixes_needed() == 2 {
            none + one
        } else {
            none
        };
        let win = P::one() - &fail;
        let mut v = Vec::new();
        if !win.is_zero() {
            v.push((win, 1));
        }
        if !fail.is_zero() {
            v.push((fail, 0));
        }
        v
    }

    fn roll(&self, rng: &mut ChaCha20Rng) -> (Vec<i64>, i64) {
        let faces = roll_dice(rng, self.rolled(), 6);
        let o = self.judge(&faces).unwrap_or(0);
        (faces, o)
    }

    fn judge(&self, faces: &[i64]) -> Option<i64> {
        if !are_dice(faces, self.rolled(), 6) {
            return None;
        }
        let sixes = faces.iter().filter(|&&f| f == 6).count();
        Some(i64::from(sixes >= self.sixes_needed()))
    }

    fn outcome_label(&self, outcome: i64) -> String {
        if outcome == 1 { "success" } else { "failure" }.into()
    }
}

/// One die of `sides` sides; the outcome is the face.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Die {
    pub sides: u32,
}

impl Check for Die {
    fn describe(&self) -> String {
        format!("1d{}", self.sides)
    }

    fn outcomes(&self) -> Vec<(P, i64)> {
        (1..=self.sides)
            .map(|f| {
                (
                    P::new(BigInt::one(), BigInt::from(self.sides)),
                    i64::from(f),
                )
            })
            .collect()
    }

    fn roll(&self, rng: &mut ChaCha20Rng) -> (Vec<i64>, i64) {
        let faces = roll_dice(rng, 1, self.sides);
        (faces.clone(), faces[0])
    }

    fn judge(&self, faces: &[i64]) -> Option<i64> {
        match faces {
            [f] if (1..=i64::from(self.sides)).contains(f) => Some(*f),
            _ => None,
        }
    }

    fn outcome_label(&self, outcome: i64) -> String {
        outcome.to_string()
    }
}
