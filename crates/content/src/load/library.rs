//! A file's parsed items added to the [`Library`], each with the place it came from.

use super::*;

pub(super) fn add_doc(lib: &mut Library, file: usize, doc: FileDoc) {
    for t in doc.table {
        let t = t.into_inner();
        let rows_loc = loc(file, t.rows.span());
        let rows = t
            .rows
            .into_inner()
            .into_iter()
            .map(|r| {
                let row_loc = loc(file, r.span());
                let r = r.into_inner();
                Row {
                    on: located(file, r.on),
                    result: located(file, r.result),
                    editorial: r.editorial,
                    modifier: r.modifier,
                    unit: r.unit,
                    tags: r.tags.into_iter().map(|t| located(file, t)).collect(),
                    forms: r.forms.map(|f| located(file, f)),
                    loc: row_loc,
                }
            })
            .collect();
        lib.tables.push(Table {
            id: located(file, t.id),
            title: t.title,
            dice: located(file, t.dice),
            note: t.note,
            editorial: t.editorial,
            keys_of: t.keys_of.map(|k| located(file, k)),
            imported: t.imported,
            rows,
            rows_loc,
        });
    }
    for l in doc.lookup {
        let l = l.into_inner();
        let entries_loc = loc(file, l.entries.span());
        let entries = l
            .entries
            .into_inner()
            .into_iter()
            .map(|e| {
                let e = e.into_inner();
                Entry {
                    key: located(file, e.key),
                    value: located(file, e.value),
                    note: e.note,
                    editorial: e.editorial,
                    up_to_hours: e.up_to_hours.map(|h| located(file, h)),
                }
            })
            .collect();
        lib.lookups.push(Lookup {
            id: located(file, l.id),
            title: l.title,
            key: l.key,
            value: l.value,
            kind: l.kind,
            role: l.role,
            note: l.note,
            editorial: l.editorial,
            entries,
            entries_loc,
        });
    }
    for d in doc.deck {
        let deck_span = d.span();
        let d = d.into_inner();
        let suit = |s: Option<Spanned<Vec<Spanned<String>>>>| match s {
            Some(s) => {
                let span = s.span();
                Located::new(
                    s.into_inner()
                        .into_iter()
                        .map(|c| located(file, c))
                        .collect(),
                    file,
                    span,
                )
            }
            None => Located::new(Vec::new(), file, deck_span.clone()),
        };
        let cards = [
            suit(d.hearts),
            suit(d.clubs),
            suit(d.diamonds),
            suit(d.spades),
        ];
        let id = located(file, d.id);
        let ranks = match d.ranks {
            Some(r) => {
                let span = r.span();
                Located::new(
                    r.into_inner()
                        .into_iter()
                        .map(|c| located(file, c))
                        .collect(),
                    file,
                    span,
                )
            }
            None => Located {
                value: RANKS
                    .iter()
                    .map(|r| Located {
                        value: (*r).to_owned(),
                        loc: id.loc.clone(),
                    })
                    .collect(),
                loc: id.loc.clone(),
            },
        };
        lib.decks.push(Deck {
            id,
            title: d.title,
            note: d.note,
            editorial: d.editorial,
            back: d.back,
            damage: d.damage,
            suits: d.suits,
            ranks,
            cards,
        });
    }
    for b in doc.book {
        let b = b.into_inner();
        lib.books.push(Book {
            id: located(file, b.id),
            title: b.title,
            subtitle: b.subtitle,
            author: b.author,
            language: b.language.unwrap_or_else(|| "en".to_owned()),
            credits: b.credits,
            edition: b.edition,
            own_tables: b.own_tables.unwrap_or_default(),
            index: b.index,
            order: b.chapters.into_iter().map(|c| located(file, c)).collect(),
            chapters: Vec::new(),
        });
    }
    for r in doc.ruling {
        let r = r.into_inner();
        lib.rulings.push(Ruling {
            id: located(file, r.id),
            title: r.title,
            ruling: r.ruling,
            reason: r.reason,
        });
    }
    for k in doc.kit {
        let k = k.into_inner();
        lib.kits.push(Kit {
            id: located(file, k.id),
            title: k.title,
            source: k.source,
            licence: k.licence,
            attribution: k.attribution,
            editorial: k.editorial,
            order: k.pages.into_iter().map(|c| located(file, c)).collect(),
            pages: Vec::new(),
        });
    }
    for n in doc.npc {
        let n = n.into_inner();
        lib.npcs.push(Npc {
            id: located(file, n.id),
            name: n.name,
            class: located(file, n.class),
            level: n.level,
            mastery: n.mastery,
        });
    }
    for c in doc.claimed_odds {
        let c = c.into_inner();
        let columns_loc = loc(file, c.columns.span());
        let rows_loc = loc(file, c.rows.span());
        let columns = c
            .columns
            .into_inner()
            .into_iter()
            .map(|col| {
                let col_loc = loc(file, col.span());
                let col = col.into_inner();
                let mut contests = vec![(located(file, col.a), located(file, col.b))];
                contests.extend(col.also.into_iter().map(|x| {
                    let x = x.into_inner();
                    (located(file, x.a), located(file, x.b))
                }));
                ClaimColumn {
                    label: col.label,
                    contests,
                    loc: col_loc,
                }
            })
            .collect();
        let rows = c
            .rows
            .into_inner()
            .into_iter()
            .map(|r| {
                let row_loc = loc(file, r.span());
                let r = r.into_inner();
                ClaimRow {
                    label: r.label,
                    counts: located(file, r.counts),
                    cells_loc: loc(file, r.cells.span()),
                    cells: r
                        .cells
                        .into_inner()
                        .into_iter()
                        .map(|x| located(file, x))
                        .collect(),
                    loc: row_loc,
                }
            })
            .collect();
        lib.claimed_odds.push(ClaimedOdds {
            id: located(file, c.id),
            title: c.title,
            printed_in: c.printed_in,
            note: c.note,
            ties: located(file, c.ties),
            attacker: c.attacker.map(|a| located(file, a)),
            rounding: located(file, c.rounding),
            decimals: c.decimals.map(|d| located(file, d)),
            columns,
            columns_loc,
            rows,
            rows_loc,
        });
    }
    for c in doc.chart {
        let c = c.into_inner();
        let columns = {
            let span = c.columns.span();
            Located::new(
                c.columns
                    .into_inner()
                    .into_iter()
                    .map(|n| located(file, n))
                    .collect(),
                file,
                span,
            )
        };
        let span = c.rows.span();
        let rows = c
            .rows
            .into_inner()
            .into_iter()
            .map(|r| {
                let rspan = r.span();
                let (cells, editorial) = match r.into_inner() {
                    ChartRowDoc::Cells(cells) => (cells, None),
                    ChartRowDoc::Full(f) => (f.cells, f.editorial),
                };
                ChartRow {
                    cells: cells.iter().map(Cell::text).collect(),
                    editorial,
                    loc: loc(file, rspan),
                }
            })
            .collect();
        lib.charts.push(Chart {
            id: located(file, c.id),
            title: c.title,
            note: c.note,
            editorial: c.editorial,
            columns,
            numeric: c.numeric.into_iter().map(|n| located(file, n)).collect(),
            rows: Located::new(rows, file, span),
        });
    }
    for t in doc.track {
        let t = t.into_inner();
        let feature = |f: FeatureDoc| Feature {
            title: f.title,
            text: f.text,
            editorial: f.editorial,
        };
        lib.tracks.push(Track {
            id: located(file, t.id),
            title: t.title,
            note: t.note,
            editorial: t.editorial,
            spaces: t
                .space
                .into_iter()
                .map(|s| {
                    let s = s.into_inner();
                    Space {
                        n: located(file, s.n),
                        name: s.name,
                        challenge: s.challenge.map(|c| {
                            let at = loc(file, c.span());
                            let c = c.into_inner();
                            Challenge {
                                title: c.title,
                                text: c.text,
                                plus: located(file, c.plus),
                                minus: located(file, c.minus),
                                damage: c.damage,
                                plus_text: c.plus_text,
                                default_text: c.default_text,
                                minus_text: c.minus_text,
                                editorial: c.editorial,
                                loc: at,
                            }
                        }),
                        gate: s.gate.map(feature),
                        exit: s.exit.map(feature),
                    }
                })
                .collect(),
            starts: t
                .start
                .into_iter()
                .map(|s| {
                    let s = s.into_inner();
                    Start {
                        who: s.who,
                        side: s.side,
                        space: located(file, s.space),
                    }
                })
                .collect(),
        });
    }
}
