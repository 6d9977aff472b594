//! A chase track as the model reads it: spaces in running order, each with its challenge.

use super::*;
use crate::error::TrackFault;

/// One space of a track.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Cell {
    /// A challenge: (+ path's space, − path's space, damage, title).
    pub challenge: Option<ChallengeCell>,
    pub gate: bool,
    pub exit: bool,
    pub name: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChallengeCell {
    pub title: String,
    pub plus: i64,
    pub minus: i64,
    pub damage: u32,
}

/// A chase track: spaces numbered from `first` in running order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Track {
    pub id: String,
    pub title: String,
    pub first: i64,
    pub cells: Vec<Cell>,
    /// The first pursuer's and the first evader's start spaces, if the track gives them.
    pub pursuer_start: Option<i64>,
    pub evader_start: Option<i64>,
}

impl Track {
    pub fn last(&self) -> i64 {
        self.first + self.cells.len() as i64 - 1
    }
    pub fn cell(&self, n: i64) -> Option<&Cell> {
        usize::try_from(n - self.first)
            .ok()
            .and_then(|i| self.cells.get(i))
    }
    /// The reasons the track cannot carry a chase (the content checker says the same in more detail),
    /// as an error naming `--track`.
    pub fn validate(&self) -> Result<(), OptionError> {
        let bad = |fault: TrackFault| {
            Err(OptionError::new(
                Opt::Track,
                Problem::BadTrack {
                    track: self.id.clone(),
                    fault,
                },
            ))
        };
        if self.cells.len() < 2 {
            return bad(TrackFault::TooShort);
        }
        if !self.cells.iter().any(|c| c.exit) {
            return bad(TrackFault::NoExit);
        }
        for (i, c) in self.cells.iter().enumerate() {
            let n = self.first + i as i64;
            if let Some(ch) = &c.challenge {
                if self.cell(ch.plus).is_none() || ch.plus <= n + 1 {
                    return bad(TrackFault::PlusPath(n));
                }
                if self.cell(ch.minus).is_none() || ch.minus > n {
                    return bad(TrackFault::MinusPath(n));
                }
                if c.exit {
                    return bad(TrackFault::ExitChallenge(n));
                }
            }
        }
        // Every space before the first exit must lead on to it: a step from the last space goes nowhere.
        let first_exit = self.cells.iter().position(|c| c.exit).unwrap_or(0);
        if first_exit == 0 {
            return bad(TrackFault::FirstIsExit(self.first));
        }
        Ok(())
    }
}
