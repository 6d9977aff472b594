//! The Block by Block approach cards: `players` sets of the investigators' three and of the NPCs' three,
//! for the secret simultaneous choice of an interrogation. Every word they print is the kit's page
//! `content/bbb/kit/approach-cards.md`: one `##` heading per approach (its name as the card prints it,
//! its anchor the matrix's name: `## Make Them Sweat` still names `Make them Sweat`) with what the card
//! says of it, and the part `## Card labels` with the words every card carries (the side's label over the
//! name, the word before each of the other side's approaches, the set label, the backs). What an approach
//! does against each of the other side's comes from the content's interrogation matrix.

use super::faces::{Approach, Back, Block, Face};
use super::reference::{GAME, LABELS, MATRIX, Slots, labels};
use super::{Card, Checked};
use crate::error::invariant;
use blockprint_content::error::Result;

/// The investigators' and the NPCs' approaches, in the order the cards print them.
pub const INVESTIGATOR: [&str; 3] = ["Good Cop", "Bad Cop", "Make them Sweat"];
pub const NPC: [&str; 3] = ["Mouth Off", "Play it Cool", "Clam Up"];

/// The kit's page with the cards' words (`content/bbb/kit/<page>.md`).
pub const APPROACH_PAGE: &str = "approach-cards";

/// The labels the part [`LABELS`] must give, by the bold name of its list item (without the colon),
/// each with what it is for.
pub const LABEL_NAMES: [(&str, &str); 7] = [
    ("Investigator face", "over an investigator approach's name"),
    ("NPC face", "over an NPC approach's name"),
    ("Against", "before each of the other side's approaches"),
    ("Set", "before the set's number"),
    ("Investigator back", "the investigator cards' back"),
    ("NPC back", "the NPC cards' back"),
    ("Back subtitle", "under either back's title"),
];

/// The approach cards the page must have: one per approach of [`INVESTIGATOR`] and [`NPC`], by anchor,
/// and the labels' part.
pub fn approach_anchors() -> Vec<String> {
    INVESTIGATOR
        .iter()
        .chain(NPC.iter())
        .map(|a| blockprint_content::prose::anchor(a))
        .chain([LABELS.to_owned()])
        .collect()
}

/// The requirement that the approach cards' page has a heading per approach and the labels' part.
pub fn approach_needs() -> (String, String, Vec<String>) {
    let anchors = approach_anchors();
    let needs: Vec<&str> = anchors.iter().map(String::as_str).collect();
    crate::kits::prose_needs(GAME, APPROACH_PAGE, &needs)
}

/// The requirement that the approach cards' parts name nothing in code spans: the cards compute nothing
/// to place there (`check` refuses a span, which the cards could not fill).
pub fn approach_slots() -> blockprint_content::check::requires::Slots {
    blockprint_content::check::requires::Slots {
        game: GAME.into(),
        page: APPROACH_PAGE.into(),
        parts: approach_anchors(),
        ..Default::default()
    }
}

/// The approach cards: `players` sets of the investigators' three and `players` sets of the NPCs' three,
/// each with what the kit's page `approach-cards` says of it (the paragraphs under its `##` heading) and
/// what it does against the other side's approaches (from the content's matrix when given), then
/// `write_ins` write-in cards (half of them, rounded up, the investigators', the rest the NPCs'). The
/// faces list starts with the two backs (investigators', NPCs'); the Markdown's data names them, the sets
/// and the write-in cards.
pub fn approach_cards(
    players: u32,
    write_ins: usize,
    cx: &Checked,
) -> Result<(Vec<Face>, Vec<Card>, serde_json::Value)> {
    let anchors = approach_anchors();
    let needs: Vec<&str> = anchors.iter().map(String::as_str).collect();
    let page = crate::kits::prose(cx, GAME, APPROACH_PAGE, &needs)?;
    let slots = Slots::new(APPROACH_PAGE);
    let [
        inv_face,
        npc_face,
        vs,
        set_word,
        inv_back,
        npc_back,
        back_word,
    ]: [String; 7] = labels(
        APPROACH_PAGE,
        &LABEL_NAMES,
        &slots.blocks(&page.parts[LABELS].blocks)?,
    )?
    .try_into()
    .map_err(|_| invariant("the approach cards' labels are not seven"))?;
    // An approach's name as its heading on the page writes it (the matrix's words, the page's letters).
    let printed = |name: &str| -> String {
        page.parts
            .get(&blockprint_content::prose::anchor(name))
            .map_or_else(|| name.to_owned(), |p| p.title.clone())
    };
    let matrix = cx.lib.lookup(MATRIX);
    let against = |mine: &str, investigator: bool| -> Vec<(String, String)> {
        let Some(m) = matrix else {
            return Vec::new();
        };
        let others = if investigator { NPC } else { INVESTIGATOR };
        others
            .iter()
            .filter_map(|o| {
                let key = if investigator {
                    format!("{mine} vs {o}")
                } else {
                    format!("{o} vs {mine}")
                };
                m.entries
                    .iter()
                    .find(|e| e.key.value == key)
                    .map(|e| (format!("{vs} {}", printed(o)), e.value.value.to_string()))
            })
            .collect()
    };
    let blurb = |name: &str| -> Result<String> {
        let part = &page.parts[&blockprint_content::prose::anchor(name)];
        let mut words = Vec::new();
        for b in slots.blocks(&part.blocks)? {
            if let Block::Text { lead, text } = b {
                words.push(format!("{lead}{text}"));
            }
        }
        Ok(words.join(" "))
    };

    let backs = [
        Back {
            style: "investigator".into(),
            title: inv_back,
            subtitle: back_word.clone(),
        },
        Back {
            style: "npc".into(),
            title: npc_back,
            subtitle: back_word,
        },
    ];
    let mut faces: Vec<Face> = backs.iter().cloned().map(Face::Back).collect();
    let mut cards = Vec::new();
    // One face per card (the set number differs): the three of each side, set by set.
    for (back, side, label, names) in [
        (0, "investigator", &inv_face, INVESTIGATOR),
        (1, "npc", &npc_face, NPC),
    ] {
        let mut three = Vec::new();
        for name in names {
            three.push((name, blurb(name)?, against(name, side == "investigator")));
        }
        for set in 1..=players {
            for (name, blurb, against) in &three {
                cards.push(Card {
                    front: faces.len(),
                    back,
                });
                faces.push(Face::Approach(Approach {
                    side: side.into(),
                    label: label.clone(),
                    name: printed(name),
                    blurb: blurb.clone(),
                    against: against.clone(),
                    set,
                    set_label: format!("{set_word} {set}"),
                    write_in: false,
                }));
            }
        }
    }
    // The write-in cards: the side's label and the other side's approaches, the rest left to the pen.
    let investigators = write_ins.div_ceil(2);
    for (back, side, label, others, count) in [
        (0, "investigator", &inv_face, NPC, investigators),
        (1, "npc", &npc_face, INVESTIGATOR, write_ins - investigators),
    ] {
        for _ in 0..count {
            cards.push(Card {
                front: faces.len(),
                back,
            });
            faces.push(Face::Approach(Approach {
                side: side.into(),
                label: label.clone(),
                name: String::new(),
                blurb: String::new(),
                against: others
                    .iter()
                    .map(|o| (format!("{vs} {}", printed(o)), String::new()))
                    .collect(),
                set: 0,
                set_label: String::new(),
                write_in: true,
            }));
        }
    }
    let md = serde_json::json!({
        "title": backs[0].subtitle,
        "players": players,
        "write_ins": write_ins,
        "backs": backs.iter().map(|b| [&b.title, &b.subtitle]).collect::<Vec<_>>(),
    });
    Ok((faces, cards, md))
}
