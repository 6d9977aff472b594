//! Ready/Bolt/Flow's roll: Fudge dice, two, or one with the other fixed at [+] or [−] (Fudge).

use super::*;

/// A roll of Fudge dice: two dice, or one with the other fixed at [+] (advantaged) or [−] (disadvantaged),
/// or a single die (Ready). Its odds come from the dice engine.
#[derive(Debug, Clone)]
pub struct Fudge {
    /// Dice actually rolled.
    pub dice: u32,
    /// The fixed die: +1, −1 or 0 (none).
    pub fixed: i64,
    outcomes: Vec<(P, i64)>,
    what: &'static str,
}

impl Fudge {
    fn new(dice: u32, fixed: i64, what: &'static str) -> Fudge {
        let expr = match fixed {
            0 => format!("{dice}dF"),
            f if f > 0 => format!("{dice}dF+{f}"),
            f => format!("{dice}dF-{}", -f),
        };
        let outcomes = crate::model::outcomes(&expr);
        Fudge {
            dice,
            fixed,
            outcomes,
            what,
        }
    }
    /// Two dice at a step: +1 advantaged, 0 neutral, −1 disadvantaged.
    pub fn at(step: i32) -> Fudge {
        match step.clamp(-1, 1) {
            0 => Fudge::new(2, 0, "two"),
            s => Fudge::new(1, i64::from(s), "two"),
        }
    }
    /// Ready's single die.
    pub fn ready() -> Fudge {
        Fudge::new(1, 0, "ready")
    }
}

impl Check for Fudge {
    fn describe(&self) -> String {
        match (self.dice, self.fixed) {
            (1, 0) => "one Fudge die".into(),
            (_, 0) => format!("{} Fudge dice", count_words(self.dice)),
            (_, f) if f > 0 => "one Fudge die with advantage (the other set to [+])".into(),
            _ => "one Fudge die with disadvantage (the other set to [−])".into(),
        }
    }
    fn outcomes(&self) -> Vec<(P, i64)> {
        self.outcomes.clone()
    }
    fn roll(&self, rng: &mut ChaCha20Rng) -> (Vec<i64>, i64) {
        let faces: Vec<i64> = (0..self.dice)
            .map(|_| i64::from(rng.random_range(0..3u32)) - 1)
            .collect();
        let v = self.judge(&faces).unwrap_or(0);
        (faces, v)
    }
    fn judge(&self, faces: &[i64]) -> Option<i64> {
        if faces.len() != self.dice as usize || faces.iter().any(|f| !(-1..=1).contains(f)) {
            return None;
        }
        Some(faces.iter().sum::<i64>() + self.fixed)
    }
    fn outcome_label(&self, v: i64) -> String {
        let marks = |v: i64| match v {
            2 => "[+][+]".to_owned(),
            1 => "[+]".to_owned(),
            0 => "[o]".to_owned(),
            -1 => "[−]".to_owned(),
            -2 => "[−][−]".to_owned(),
            v => v.to_string(),
        };
        match self.what {
            "ready" => match v {
                1 => "[+]: two Sprint Tokens".into(),
                0 => "[o]: one Sprint Token".into(),
                _ => "[−]: nothing".into(),
            },
            _ => marks(v),
        }
    }
}
