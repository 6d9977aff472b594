//! Ready/Bolt/Flow chases (Andrew Gross, CC BY-SA 4.0), one runner against one: a pursuer and an
//! evader on a track of numbered spaces with challenges, gates and an exit. Each round both reveal one of
//! the five actions (Ready, Run, Flow, Bolt, Strike); Strikes are resolved first, then the runners move,
//! the front runner first. The evader escapes on reaching the exit; the pursuer catches it by striking it
//! while it is stunned, which restrains it (with no ally to strike it free, that ends the chase).
//!
//! The state is both runners' spaces, their Sprint Tokens and whether each is stunned for the coming
//! round. What each runner plays is fixed by the policy ([`policies`]); the rulings the gaps need are
//! [`RULINGS`], beside the kit's own (`rbf.ruling.*` in the content).

use blockprint_dice::words::count_words;
use num_traits::{ToPrimitive, Zero};
use rand::RngExt;
use rand_chacha::ChaCha20Rng;

use blockprint_content::Library;

use crate::model::{
    Chance, Check, Ending, OptionError, P, Policy, Ruling, System, SystemInfo, Unit, capital,
    policy_index,
};
use crate::{Built, Chase, Grid, GridTable, Limits};

/// Starting Sprint Tokens by speed: (lowest speed, tokens), highest first ("16 or less": 0).
pub const SPEED_TOKENS: [(u32, u32); 5] = [(29, 4), (25, 3), (21, 2), (17, 1), (0, 0)];
/// Sprint Tokens a runner may start with.
pub const MAX_START_TOKENS: u32 = 9;
/// Unarmed reach: the same space or the next.
pub const REACH: i64 = 1;
/// Rounds before a chase is called off.
pub const MAX_ROUNDS: u32 = 60;
/// Sprint Tokens a runner can hold in the model; more are not gained (the policies never hoard).
pub const TOKEN_CAP: u32 = 9;

/// The tokens a speed starts with.
pub fn tokens_for_speed(speed: u32) -> u32 {
    SPEED_TOKENS
        .iter()
        .find(|(lo, _)| speed >= *lo)
        .map_or(0, |&(_, t)| t)
}

/// The house rulings of the model, beside the kit's (`rbf.ruling.*`): (id, title, ruling, reason).
pub const RULINGS: [(&str, &str, &str, &str); 7] = [
    (
        "rbf.chase.ruling.reach-challenge",
        "Meeting a challenge mid-move",
        "A runner meets a challenge when a step of its move leaves the challenge's space: that step goes by the default path to the next space, by the + path to the space it names, or by the − path back to the space it names. Ending a move on the challenge's space is not meeting it.",
        "The source never says when a runner reaches a challenge in the middle of a move; counting the step out of its space lets every path length of a track mean what its numbers say.",
    ),
    (
        "rbf.chase.ruling.one-flow-roll",
        "One Flow roll a round",
        "Flow rolls once a round, at the first challenge the move meets; any later challenge that round, and the same one met again after a − path, is passed by the default path.",
        "Flow is one action with one roll; a second challenge in the same move would need a second card.",
    ),
    (
        "rbf.chase.ruling.damage",
        "Damage does not end a chase",
        "Hit points are not tracked. On a single [−] the runner takes the damage rather than the longer way; on [−][−] it takes both.",
        "The source gives no rule for a runner at 0 hit points, so damage cannot change who wins; a runner who may choose keeps its ground.",
    ),
    (
        "rbf.chase.ruling.stun",
        "Stunned, then restrained",
        "A runner stunned by a Strike does not move in the following round, and a Strike against it in that round (resolved first, from where everyone stands) restrains it. A restrained evader has no ally to free it: the chase is over.",
        "The source stuns for the next round and lets a Strike on a stunned runner restrain it; one against one, nobody can strike it free.",
    ),
    (
        "rbf.chase.ruling.front",
        "Being in front",
        "The runner further along the track (not on the same space) is in front and adds advantage to its roll; advantage and disadvantage cancel one for one, and two advantages are still one die fixed at [+].",
        "The source gives the runner in front advantage but does not say how it meets the defence's own advantage or disadvantage.",
    ),
    (
        "rbf.chase.ruling.gate-exit",
        "Gates and the exit",
        "A step onto a gate ends the move; a runner who starts on a gate moves on normally. The evader is away the moment a step reaches the exit; a pursuer stops there.",
        "Gates stop a move and exits end the evader's chase; a pursuer has nowhere further to go.",
    ),
    (
        "rbf.chase.ruling.order",
        "Who moves first",
        "After the Strikes, the runner in front moves first; on the same space the evader moves first. Runners do not block one another.",
        "The source suggests resolving from the front backwards and names no blocking.",
    ),
];

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
        let bad = |m: String| {
            Err(OptionError::new(
                "--track",
                format!("track `{}`: {m}", self.id),
            ))
        };
        if self.cells.len() < 2 {
            return bad("a track needs at least two spaces".into());
        }
        if !self.cells.iter().any(|c| c.exit) {
            return bad("it has no exit, so the evader can never get away".into());
        }
        for (i, c) in self.cells.iter().enumerate() {
            let n = self.first + i as i64;
            if let Some(ch) = &c.challenge {
                if self.cell(ch.plus).is_none() || ch.plus <= n + 1 {
                    return bad(format!(
                        "the + path of the challenge on space {n} does not lead to a space ahead of the next one"
                    ));
                }
                if self.cell(ch.minus).is_none() || ch.minus > n {
                    return bad(format!(
                        "the − path of the challenge on space {n} does not lead to a space at or behind it"
                    ));
                }
                if c.exit {
                    return bad(format!("space {n} is an exit and holds a challenge"));
                }
            }
        }
        // Every space before the first exit must lead on to it: a step from the last space goes nowhere.
        let first_exit = self.cells.iter().position(|c| c.exit).unwrap_or(0);
        if first_exit == 0 {
            return bad(format!("its first space ({}) is the exit", self.first));
        }
        Ok(())
    }
}

/// The five actions (Bolt always bids one token in the model's policies).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Ready,
    Run,
    Flow,
    Bolt,
    Strike,
}

impl Action {
    pub fn name(self) -> &'static str {
        match self {
            Action::Ready => "Ready",
            Action::Run => "Run",
            Action::Flow => "Flow",
            Action::Bolt => "Bolt",
            Action::Strike => "Strike",
        }
    }
    /// Spaces moved before Bolt's fourth.
    fn moves(self) -> u32 {
        match self {
            Action::Ready | Action::Strike => 2,
            _ => 3,
        }
    }
    /// The defence's step: +1 advantaged, 0 neutral, −1 disadvantaged; None: automatic (Bolt wins,
    /// Strike loses).
    fn defence(self) -> Option<i32> {
        match self {
            Action::Ready => Some(1),
            Action::Run => Some(0),
            Action::Flow => Some(-1),
            Action::Bolt | Action::Strike => None,
        }
    }
}

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
        let outcomes = blockprint_dice::parse(&expr)
            .ok()
            .and_then(|e| e.distribution().ok())
            .map(|d| d.outcomes())
            .unwrap_or_default()
            .into_iter()
            .filter(|(_, p)| !p.is_zero())
            .map(|(v, p)| (p, v.to_integer().to_i64().unwrap_or(0)))
            .collect();
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

/// Where a chase stands.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct State {
    /// Spaces: pursuer, evader.
    pub pos: [i64; 2],
    /// Sprint Tokens: pursuer, evader.
    pub tokens: [u32; 2],
    /// Stunned for the coming round: pursuer, evader.
    pub stunned: [bool; 2],
    /// 0 running, 1 escaped, 2 caught.
    pub over: u8,
}

/// The policies, in the order of [`policies`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Play {
    Bolt,
    Run,
    ReadyBolt,
    Flow,
    BoltBehind,
}

const PLAYS: [Play; 5] = [
    Play::Bolt,
    Play::Run,
    Play::ReadyBolt,
    Play::Flow,
    Play::BoltBehind,
];

/// The policies: what each runner plays. In every one the pursuer Strikes whenever the evader is within
/// reach, a pursuer that has passed the evader plays Ready until it comes within reach, and a stunned
/// runner that may be struck plays Bolt if it has a token (its defence cannot fail), else Ready.
pub fn policies() -> Vec<Policy> {
    const COMMON: &str = "The pursuer Strikes whenever the evader is within reach; a stunned evader within reach plays Bolt if it has a token, else Ready.";
    vec![
        Policy::new(
            "bolt",
            &format!(
                "Each runner plays Bolt, bidding one token, whenever it has a token, and Run otherwise. {COMMON}"
            ),
        ),
        Policy::new("run", &format!("Both runners Run. {COMMON}")),
        Policy::new(
            "ready-bolt",
            &format!(
                "Each runner plays Bolt whenever it has a token, and Ready to earn tokens when it has none. {COMMON}"
            ),
        ),
        Policy::new(
            "flow",
            &format!(
                "A runner whose move would meet a challenge plays Flow; otherwise Bolt when it has a token, else Run. {COMMON}"
            ),
        ),
        Policy::new(
            "bolt-behind",
            &format!(
                "The pursuer Bolts when it has a token and is two or more spaces behind, else Runs; the evader Runs, and Bolts only when the pursuer is within two spaces. {COMMON}"
            ),
        ),
    ]
}

/// A one-against-one Ready/Bolt/Flow chase.
#[derive(Debug, Clone)]
pub struct Rbf {
    pub track: Track,
    /// Start spaces and tokens: pursuer, evader.
    pub start: [i64; 2],
    pub tokens: [u32; 2],
    /// Strike reach in spaces.
    pub reach: i64,
    /// The rolls, worked out once: two dice at each step (disadvantaged, neutral, advantaged), Ready's die.
    rolls: [Fudge; 3],
    ready: Fudge,
}

const WHO: [&str; 2] = ["the pursuer", "the evader"];

impl Rbf {
    pub fn new(track: Track, start: [i64; 2], tokens: [u32; 2]) -> Result<Rbf, OptionError> {
        track.validate()?;
        for (i, opt) in ["--pursuer-start", "--evader-start"].iter().enumerate() {
            let Some(c) = track.cell(start[i]) else {
                return Err(OptionError::new(
                    opt,
                    format!(
                        "space {} is not on track `{}` (spaces {} to {})",
                        start[i],
                        track.id,
                        track.first,
                        track.last()
                    ),
                ));
            };
            if c.exit {
                return Err(OptionError::new(
                    opt,
                    format!(
                        "space {} is the exit: a runner there has left the track",
                        start[i]
                    ),
                ));
            }
        }
        for (i, opt) in ["--pursuer-tokens", "--evader-tokens"].iter().enumerate() {
            if tokens[i] > MAX_START_TOKENS {
                return Err(OptionError::new(
                    opt,
                    format!(
                        "a runner starts with 0 to {MAX_START_TOKENS} Sprint Tokens, not {}",
                        tokens[i]
                    ),
                ));
            }
        }
        // The evader must be able to reach an exit from its start.
        if !track.cells[(start[1] - track.first) as usize..]
            .iter()
            .any(|c| c.exit)
        {
            return Err(OptionError::new(
                "--evader-start",
                format!(
                    "no exit lies ahead of space {} on track `{}`",
                    start[1], track.id
                ),
            ));
        }
        Ok(Rbf {
            track,
            start,
            tokens,
            reach: REACH,
            rolls: [Fudge::at(-1), Fudge::at(0), Fudge::at(1)],
            ready: Fudge::ready(),
        })
    }

    /// Two Fudge dice at a step (clamped: two advantages are one).
    fn fudge(&self, step: i32) -> &Fudge {
        &self.rolls[(step.clamp(-1, 1) + 1) as usize]
    }

    /// Whether a move of `steps` from `pos` meets a challenge (leaves a challenge's space).
    fn meets_challenge(&self, pos: i64, steps: u32) -> bool {
        let mut p = pos;
        for _ in 0..steps {
            let Some(c) = self.track.cell(p) else {
                return false;
            };
            if c.exit {
                return false;
            }
            if c.challenge.is_some() {
                return true;
            }
            p += 1;
            if self.track.cell(p).is_some_and(|c| c.gate) {
                return false;
            }
        }
        false
    }

    /// What runner `i` (0 pursuer, 1 evader) plays.
    fn choose(&self, s: &State, i: usize, policy: usize) -> Action {
        let gap = s.pos[1] - s.pos[0];
        let in_reach = gap.abs() <= self.reach;
        let tok = s.tokens[i];
        // The pursuer strikes whenever the evader is within reach.
        if i == 0 && in_reach {
            return Action::Strike;
        }
        // A stunned runner the other may strike defends as well as it can.
        if s.stunned[i] && in_reach {
            return if tok > 0 { Action::Bolt } else { Action::Ready };
        }
        // A pursuer that has passed the evader cannot turn back: it dawdles (Ready) until the evader
        // comes within reach.
        if i == 0 && gap < -self.reach {
            return Action::Ready;
        }
        match PLAYS.get(policy).copied().unwrap_or(Play::Bolt) {
            Play::Run => Action::Run,
            Play::Bolt => {
                if tok > 0 {
                    Action::Bolt
                } else {
                    Action::Run
                }
            }
            Play::ReadyBolt => {
                if tok > 0 {
                    Action::Bolt
                } else {
                    Action::Ready
                }
            }
            Play::Flow => {
                if self.meets_challenge(s.pos[i], 3) {
                    Action::Flow
                } else if tok > 0 {
                    Action::Bolt
                } else {
                    Action::Run
                }
            }
            Play::BoltBehind => {
                if i == 0 {
                    if tok > 0 && gap >= 2 {
                        Action::Bolt
                    } else {
                        Action::Run
                    }
                } else if tok > 0 && gap.abs() <= self.reach + 1 {
                    Action::Bolt
                } else {
                    Action::Run
                }
            }
        }
    }

    /// Move runner `i` playing `act` with `extra` (Bolt's fourth space); returns (space, tokens gained,
    /// escaped).
    fn travel(
        &self,
        i: usize,
        from: i64,
        act: Action,
        extra: bool,
        chance: &mut dyn Chance,
    ) -> (i64, u32, bool) {
        let steps = act.moves() + u32::from(extra);
        let mut p = from;
        let mut gained = 0;
        let mut rolled = false;
        for _ in 0..steps {
            let Some(cell) = self.track.cell(p) else {
                break;
            };
            if cell.exit {
                break;
            }
            let mut next = p + 1;
            if let Some(ch) = &cell.challenge {
                if act == Action::Flow && !rolled {
                    rolled = true;
                    let v = chance.roll(WHO[i], &format!("Flow at {}", ch.title), self.fudge(0));
                    next = match v {
                        2 => {
                            gained += 1;
                            ch.plus
                        }
                        1 => ch.plus,
                        0 | -1 => p + 1,
                        _ => ch.minus,
                    };
                    let title = ch.title.clone();
                    let damage = ch.damage;
                    chance.note(&|| {
                        let what = match v {
                            2 => {
                                format!("takes the + path to space {next} and gains a Sprint Token")
                            }
                            1 => format!("takes the + path to space {next}"),
                            0 => "takes the default path".to_owned(),
                            -1 => format!("takes {damage} damage and the default path"),
                            _ => {
                                format!("takes the − path back to space {next} and {damage} damage")
                            }
                        };
                        format!("{} {what} at {title}", capital(WHO[i]))
                    });
                } else {
                    next = p + 1;
                }
            }
            p = next;
            let Some(c) = self.track.cell(p) else { break };
            if c.exit {
                return (p, gained, i == 1);
            }
            if c.gate {
                break;
            }
        }
        (p, gained, false)
    }
}

impl System for Rbf {
    type State = State;

    fn info(&self) -> SystemInfo {
        SystemInfo {
            id: "rbf".into(),
            name: "Ready/Bolt/Flow".into(),
            unit: Unit::new("round", "rounds"),
            endings: vec![
                Ending::new("escaped", "The evader reaches the exit"),
                Ending::new("caught", "The pursuer restrains the evader"),
            ],
            policies: policies(),
            rulings: RULINGS
                .iter()
                .map(|(id, t, r, why)| Ruling::new(id, t, r, why))
                .collect(),
        }
    }

    fn start(&self, _chance: &mut dyn Chance) -> State {
        State {
            pos: self.start,
            tokens: self.tokens,
            stunned: [false, false],
            over: 0,
        }
    }

    fn ending(&self, s: &State) -> Option<usize> {
        match s.over {
            1 => Some(0),
            2 => Some(1),
            _ => None,
        }
    }

    fn step(&self, s: &State, policy: usize, chance: &mut dyn Chance) -> State {
        let acts = [self.choose(s, 0, policy), self.choose(s, 1, policy)];
        let mut tokens = s.tokens;
        // Bolt spends its bid whether or not it wins the fourth space.
        for i in 0..2 {
            if acts[i] == Action::Bolt {
                tokens[i] -= 1;
            }
        }
        chance.note(&|| {
            format!(
                "The pursuer plays {}, the evader {}",
                acts[0].name(),
                acts[1].name()
            )
        });
        let mut stunned_next = [false, false];
        // Strikes first: only the pursuer strikes in these policies.
        if acts[0] == Action::Strike {
            let was_stunned = s.stunned[1];
            let hit = match acts[1].defence() {
                None => acts[1] == Action::Strike,
                Some(def) => {
                    let front = |i: usize| s.pos[i] > s.pos[1 - i];
                    let att = self.fudge(i32::from(front(0)));
                    let d = self.fudge(def + i32::from(front(1)));
                    let a = chance.roll("the pursuer", "Strike", att);
                    let b = chance.roll("the evader", "defence", d);
                    a > b
                }
            };
            chance.note(&|| match (hit, acts[1]) {
                (false, Action::Bolt) => "The evader played Bolt: its defence succeeds".to_owned(),
                (false, _) => "The strike misses".to_owned(),
                (true, _) if was_stunned => {
                    "The strike lands on the stunned evader: restrained".to_owned()
                }
                (true, _) => {
                    "The strike lands: the evader is stunned for the next round".to_owned()
                }
            });
            if hit {
                if was_stunned {
                    return State {
                        pos: s.pos,
                        tokens,
                        stunned: [false, false],
                        over: 2,
                    };
                }
                stunned_next[1] = true;
            }
        }
        // Bolt's fourth space: with one bid each, the Bolt behind wins; on one space both do.
        let extra = |i: usize| {
            acts[i] == Action::Bolt && (acts[1 - i] != Action::Bolt || s.pos[i] <= s.pos[1 - i])
        };
        // Movement, front runner first (the evader on a shared space).
        let order: [usize; 2] = if s.pos[0] > s.pos[1] { [0, 1] } else { [1, 0] };
        let mut pos = s.pos;
        for i in order {
            if s.stunned[i] {
                chance.note(&|| format!("{} is stunned and does not move", capital(WHO[i])));
                continue;
            }
            let (p, gained, away) = self.travel(i, s.pos[i], acts[i], extra(i), chance);
            pos[i] = p;
            tokens[i] = (tokens[i] + gained).min(TOKEN_CAP);
            if away {
                return State {
                    pos,
                    tokens,
                    stunned: [false, false],
                    over: 1,
                };
            }
        }
        for i in 0..2 {
            if acts[i] == Action::Ready {
                let v = chance.roll(WHO[i], "Ready", &self.ready);
                tokens[i] = (tokens[i] + u32::try_from(v + 1).unwrap_or(0)).min(TOKEN_CAP);
            }
        }
        State {
            pos,
            tokens,
            stunned: stunned_next,
            over: 0,
        }
    }

    fn describe(&self, s: &State) -> String {
        let one = |i: usize| {
            format!(
                "{} on space {} with {} token{}{}",
                WHO[i],
                s.pos[i],
                s.tokens[i],
                if s.tokens[i] == 1 { "" } else { "s" },
                if s.stunned[i] { ", stunned" } else { "" }
            )
        };
        let head = format!("{}; {}", capital(&one(0)), one(1));
        match s.over {
            1 => format!("{head}: the evader is away"),
            2 => format!("{head}: the evader is restrained"),
            _ => head,
        }
    }

    fn max_units(&self) -> u32 {
        MAX_ROUNDS
    }
}

// ---------- content, the command line and the grid ----------

/// The track of the content with this id, as the model reads it.
pub fn track_of(t: &blockprint_content::Track) -> Track {
    let first = t.spaces.first().map_or(0, |s| s.n.value);
    let cells = t
        .spaces
        .iter()
        .map(|s| Cell {
            challenge: s.challenge.as_ref().map(|c| ChallengeCell {
                title: c.title.clone(),
                plus: c.plus.value,
                minus: c.minus.value,
                damage: c.damage,
            }),
            gate: s.gate.is_some(),
            exit: s.exit.is_some(),
            name: s.name.clone(),
        })
        .collect();
    let start = |side: blockprint_content::Side| {
        t.starts
            .iter()
            .find(|s| s.side == side)
            .map(|s| s.space.value)
    };
    Track {
        id: t.id.value.clone(),
        title: t.title.clone(),
        first,
        cells,
        pursuer_start: start(blockprint_content::Side::Pursuer),
        evader_start: start(blockprint_content::Side::Evader),
    }
}

/// The kit's track when none is named: the first `[[track]]` whose id starts with `rbf.`, else the first.
pub fn default_track(lib: &Library) -> Option<&blockprint_content::Track> {
    lib.tracks
        .iter()
        .find(|t| t.id.value.starts_with("rbf."))
        .or_else(|| lib.tracks.first())
}

/// `chase odds rbf` options.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The `[[track]]` of the content to run on (default: the kit's, the Tenderloin footchase).
    #[arg(long, value_name = "ID")]
    pub track: Option<String>,
    /// The pursuer's speed; its starting Sprint Tokens follow the table (16 or less: 0 … 29 or more: 4).
    #[arg(long, value_name = "SPEED", conflicts_with = "pursuer_tokens")]
    pub pursuer_speed: Option<u32>,
    /// The pursuer's starting Sprint Tokens (0 to 9), instead of a speed.
    #[arg(long, value_name = "N")]
    pub pursuer_tokens: Option<u32>,
    /// The evader's speed.
    #[arg(long, value_name = "SPEED", conflicts_with = "evader_tokens")]
    pub evader_speed: Option<u32>,
    /// The evader's starting Sprint Tokens (0 to 9).
    #[arg(long, value_name = "N")]
    pub evader_tokens: Option<u32>,
    /// The pursuer's start space (default: the track's first pursuer).
    #[arg(long, value_name = "SPACE", allow_negative_numbers = true)]
    pub pursuer_start: Option<i64>,
    /// The evader's start space (default: the track's first evader).
    #[arg(long, value_name = "SPACE", allow_negative_numbers = true)]
    pub evader_start: Option<i64>,
    /// Strike reach in spaces (1 unarmed, 1 to 3).
    #[arg(long, default_value_t = 1, value_name = "SPACES")]
    pub reach: i64,
}

impl Default for Args {
    /// The command line's defaults (constants, checked by the tests: parsing them cannot fail).
    fn default() -> Self {
        crate::model::defaults("rbf").expect("the rbf options' defaults parse")
    }
}

/// The kit's "Chase odds" page ([`crate::page`]): the grid with the default options.
pub fn kit_page(lib: &Library, game: &str) -> Result<serde_json::Value, OptionError> {
    let g = grid(&Args::default(), lib, None)?;
    Ok(crate::page::data(
        &g,
        game,
        "blockprint chase odds rbf --pursuer-speed 27 --evader-speed 19 --evader-start 2 --policy flow",
    ))
}

/// The chase the options describe.
pub fn system(args: &Args, lib: &Library) -> Result<Rbf, OptionError> {
    let t = match &args.track {
        Some(id) => lib
            .tracks
            .iter()
            .find(|t| &t.id.value == id)
            .ok_or_else(|| {
                let ids: Vec<&str> = lib.tracks.iter().map(|t| t.id.value.as_str()).collect();
                OptionError::new(
                    "--track",
                    format!(
                        "the content has no track `{id}`; its tracks are: {}",
                        if ids.is_empty() {
                            "none".to_owned()
                        } else {
                            ids.join(", ")
                        }
                    ),
                )
            })?,
        None => default_track(lib).ok_or_else(|| {
            OptionError::new("--track", "the content has no [[track]] to run a chase on")
        })?,
    };
    let track = track_of(t);
    let start = [
        args.pursuer_start
            .or(track.pursuer_start)
            .unwrap_or(track.first),
        args.evader_start
            .or(track.evader_start)
            .unwrap_or(track.first),
    ];
    let tokens = [
        args.pursuer_tokens
            .unwrap_or_else(|| args.pursuer_speed.map_or(0, tokens_for_speed)),
        args.evader_tokens
            .unwrap_or_else(|| args.evader_speed.map_or(0, tokens_for_speed)),
    ];
    if !(1..=3).contains(&args.reach) {
        return Err(OptionError::new(
            "--reach",
            format!("a Strike reaches 1 to 3 spaces, not {}", args.reach),
        ));
    }
    let mut r = Rbf::new(track, start, tokens)?;
    r.reach = args.reach;
    Ok(r)
}

/// The options in words.
pub fn setup(r: &Rbf) -> String {
    format!(
        "track {} ({}); pursuer from space {} with {} Sprint Token{}, evader from space {} with {}; Strike reach {}",
        r.track.id,
        r.track.title,
        r.start[0],
        r.tokens[0],
        if r.tokens[0] == 1 { "" } else { "s" },
        r.start[1],
        r.tokens[1],
        r.reach
    )
}

pub fn build(args: &Args, lib: &Library) -> Result<Box<dyn Chase>, OptionError> {
    let system = system(args, lib)?;
    let setup = setup(&system);
    Ok(Box::new(Built { system, setup }))
}

/// The speed bands of the grid: (label, starting tokens).
pub const GRID_SPEEDS: [(&str, u32); 5] = [
    ("16 or less", 0),
    ("17–20", 1),
    ("21–24", 2),
    ("25–28", 3),
    ("29 or more", 4),
];

/// The grid: evader's speed × pursuer's speed (their starting Sprint Tokens), one against one on the
/// track; the chance the evader escapes.
pub fn grid(args: &Args, lib: &Library, policy: Option<&str>) -> Result<Grid, OptionError> {
    let base = system(args, lib)?;
    let info = base.info();
    let pi = policy_index(&info, policy)?;
    let limits = Limits::default();
    let cells = GRID_SPEEDS
        .iter()
        .map(|&(_, e)| {
            GRID_SPEEDS
                .iter()
                .map(|&(_, p)| {
                    let mut sys = base.clone();
                    sys.tokens = [p, e];
                    let built = Built {
                        setup: setup(&sys),
                        system: sys,
                    };
                    Grid::cell(&built, pi, "escaped", limits)
                })
                .collect()
        })
        .collect();
    let label = |(s, t): &(&str, u32)| format!("{s} ({t})");
    Ok(Grid {
        system: info.id.clone(),
        system_name: info.name.clone(),
        title: "Ready/Bolt/Flow: how often the evader escapes".into(),
        headline: info.endings[0].clone(),
        policy: info.policies[pi].clone(),
        unit: info.unit.clone(),
        rows_label: "Evader's speed (Sprint Tokens)".into(),
        cols_label: "Pursuer's speed (Sprint Tokens)".into(),
        tables: vec![GridTable {
            caption: format!(
                "{}: pursuer from space {}, evader from space {}",
                base.track.title, base.start[0], base.start[1]
            ),
            rows: GRID_SPEEDS.iter().map(label).collect(),
            cols: GRID_SPEEDS.iter().map(label).collect(),
            cells,
        }],
        notes: vec![
            "One pursuer against one evader. The pursuer wins by striking the evader while it is stunned; the evader wins at the exit.".into(),
            "Best play is not computed: both runners choose their cards in secret at the same moment, so the best play is a mix of cards (a mixed strategy), not a rule; the odds are those of the named play.".into(),
        ],
        rulings: info.rulings.clone(),
    })
}
