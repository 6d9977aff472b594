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
use rand::RngExt;
use rand_chacha::ChaCha20Rng;

use blockprint_content::Library;

use crate::model::{
    Chance, Check, Ending, Opt, OptionError, P, Policy, Problem, Ruling, System, SystemInfo, Unit,
    applies, capital, policy_index,
};
use crate::{Built, Chase, Grid, GridTable};

mod dice;
mod grid;
mod options;
mod track;

pub use dice::*;
pub use grid::*;
pub use options::*;
pub use track::*;

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
pub const RULINGS: [(&str, &str, &str, &str); 9] = [
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
        "Hit points are not tracked, so no runner leaves the chase at 0 hit points as the kit's play pages have it. On a single [−] the runner takes the damage rather than the longer way; on [−][−] it takes both.",
        "Hit points differ with every character and encounter and the source gives no rule for 0, so a grid of odds leaves them out; a runner who may choose keeps its ground.",
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
    (
        "rbf.chase.ruling.passed",
        "A pursuer that has run past the evader",
        "A pursuer ahead of the evader and out of its Strike's reach plays Ready, earning tokens, until the evader comes within reach; whatever the policy says the pursuer plays otherwise.",
        "The track runs one way and the source gives a runner no way back, so running on only takes the pursuer further from its quarry; waiting for it is what a pursuer does. It matters: with a pursuer of speed 27 against an evader of speed 19 starting two spaces on, both playing Flow, the pursuer restrains the evader 15.30 % of the time with this ruling and 10.49 % without it.",
    ),
    (
        "rbf.chase.ruling.stunned-bolt",
        "A stunned evader Bolts to defend",
        "A stunned runner that may be struck plays Bolt if it has a Sprint Token, for Bolt's sure defence, and else Ready; it spends its token although it cannot move that round. A stunned runner that plays Ready still rolls for tokens.",
        "The source makes any Bolt a sure defence and has every Bolt bid at least one token, but never says whether a runner that cannot move may play it, or pays; a Bolt is a Bolt, so it pays.",
    ),
];

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
        for (i, opt) in [Opt::PursuerStart, Opt::EvaderStart]
            .into_iter()
            .enumerate()
        {
            let Some(c) = track.cell(start[i]) else {
                return Err(OptionError::new(
                    opt,
                    Problem::StartOffTrack {
                        space: start[i],
                        track: track.id.clone(),
                        first: track.first,
                        last: track.last(),
                    },
                ));
            };
            if c.exit {
                return Err(OptionError::new(
                    opt,
                    Problem::StartOnExit { space: start[i] },
                ));
            }
        }
        for (i, opt) in [Opt::PursuerTokens, Opt::EvaderTokens]
            .into_iter()
            .enumerate()
        {
            if tokens[i] > MAX_START_TOKENS {
                return Err(OptionError::new(
                    opt,
                    Problem::Tokens {
                        max: MAX_START_TOKENS,
                        got: tokens[i],
                    },
                ));
            }
        }
        // The evader must be able to reach an exit from its start.
        if !track.cells[(start[1] - track.first) as usize..]
            .iter()
            .any(|c| c.exit)
        {
            return Err(OptionError::new(
                Opt::EvaderStart,
                Problem::NoExitAhead {
                    space: start[1],
                    track: track.id.clone(),
                },
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
            applies("rbf.chase.ruling.stunned-bolt");
            return if tok > 0 { Action::Bolt } else { Action::Ready };
        }
        // A pursuer that has passed the evader cannot turn back: it dawdles (Ready) until the evader
        // comes within reach.
        if i == 0 && gap < -self.reach {
            applies("rbf.chase.ruling.passed");
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
                // Met by the step out of its space; one Flow roll a round; damage taken, not tracked.
                applies("rbf.chase.ruling.reach-challenge");
                applies("rbf.chase.ruling.one-flow-roll");
                applies("rbf.chase.ruling.damage");
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
            applies("rbf.chase.ruling.gate-exit");
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
        // Bolt spends its bid whether or not it wins the fourth space, and when it is played stunned.
        applies("rbf.chase.ruling.stunned-bolt");
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
                    applies("rbf.chase.ruling.front");
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
                applies("rbf.chase.ruling.stun");
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
        applies("rbf.chase.ruling.order");
        let order: [usize; 2] = if s.pos[0] > s.pos[1] { [0, 1] } else { [1, 0] };
        let mut pos = s.pos;
        for i in order {
            if s.stunned[i] {
                applies("rbf.chase.ruling.stun");
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
        // A stunned runner's Ready still earns tokens.
        applies("rbf.chase.ruling.stunned-bolt");
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
