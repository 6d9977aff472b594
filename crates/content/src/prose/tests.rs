//! Tests of the prose parser: block trees, directives, and offsets mapped back to the source.
use super::*;

#[test]
fn directives_place_and_mention() {
    let p = parse(
        "Roll on the {table:bbb.x} table.\n\n{table:bbb.x}\n\n{npcs}\n\nSee [Breaks](breaks.md#from-legwork) and {tabel:oops}.\n",
        "intro",
    );
    assert_eq!(
        p.blocks[0],
        Block::Para {
            content: vec![
                Inline::Text {
                    text: "Roll on the ".into()
                },
                Inline::Ref {
                    of: RefKind::Table,
                    id: "bbb.x".into()
                },
                Inline::Text {
                    text: " table.".into()
                }
            ]
        }
    );
    assert_eq!(
        p.blocks[1],
        Block::Place {
            of: RefKind::Table,
            id: "bbb.x".into()
        }
    );
    assert_eq!(
        p.blocks[2],
        Block::Place {
            of: RefKind::Npcs,
            id: String::new()
        }
    );
    let placed: Vec<bool> = p
        .found
        .iter()
        .filter_map(|f| match f {
            Found::Directive { placed, .. } => Some(*placed),
            _ => None,
        })
        .collect();
    assert_eq!(placed, [false, true, true]);
    assert!(p.found.contains(&Found::Link {
        chapter: "breaks".into(),
        anchor: Some("from-legwork".into()),
        at: 61
    }));
    assert!(
        p.found
            .iter()
            .any(|f| matches!(f, Found::BadDirective { text, .. } if text == "{tabel:oops}"))
    );
    match &p.found[0] {
        Found::Directive { at, .. } => assert_eq!(*at, 12),
        f => panic!("{f:?}"),
    }
}

#[test]
fn offsets_point_at_the_source_after_smart_punctuation() {
    // Quotes, dashes, an ellipsis, an escape and an entity all change the text's length.
    let body = "She said \"don't\" -- twice... {table:x.a} 'q' --- \\* &amp; {tabel:b} [\"l\"](two.md#h) {npcs}\n\n- \"i\" {deck:x.d}\n";
    let p = parse(body, "one");
    let mut seen = 0;
    for f in &p.found {
        let (at, want) = match f {
            Found::Directive { at, of, .. } => (
                *at,
                match of {
                    RefKind::Table => "{table:x.a}",
                    RefKind::Deck => "{deck:x.d}",
                    RefKind::Npcs => "{npcs}",
                    RefKind::Lookup => "{lookup:",
                },
            ),
            Found::BadDirective { at, text } => {
                assert_eq!(text, "{tabel:b}");
                (*at, "{tabel:b}")
            }
            Found::Link { at, .. } => (*at, "[\"l\"]"),
            Found::Html { .. } => panic!("no HTML here: {f:?}"),
        };
        assert!(
            body[at..].starts_with(want),
            "{f:?} points at {:?}",
            &body[at..]
        );
        seen += 1;
    }
    assert_eq!(seen, 5);
}

#[test]
fn loose_and_nested_list_items_keep_every_block() {
    let p = parse("- one\n  - inner\n- two\n\n  more\n\n  {table:x}\n", "c");
    let Block::List { items, .. } = &p.blocks[0] else {
        panic!("{:?}", p.blocks)
    };
    let kinds: Vec<Vec<&str>> = items
        .iter()
        .map(|it| {
            it.iter()
                .map(|b| match b {
                    Block::Para { .. } => "para",
                    Block::List { .. } => "list",
                    Block::Place { .. } => "place",
                    _ => "other",
                })
                .collect()
        })
        .collect();
    assert_eq!(kinds, [vec!["para", "list"], vec!["para", "para", "place"]]);
}

#[test]
fn underscores_in_ids_survive_and_headings_get_anchors() {
    let p = parse(
        "## Time: elapsed, since!\n\n{table:bbb.homicide.time_elapsed}\n\n- one\n- two *b*\n",
        "c",
    );
    assert_eq!(p.anchors, ["time-elapsed-since"]);
    assert_eq!(
        p.blocks[1],
        Block::Place {
            of: RefKind::Table,
            id: "bbb.homicide.time_elapsed".into()
        }
    );
    match &p.blocks[2] {
        Block::List {
            ordered: false,
            items,
            ..
        } => assert_eq!(items.len(), 2),
        b => panic!("{b:?}"),
    }
}

#[test]
fn pipe_tables_become_grids() {
    let p = parse("| a | b |\n|---|---|\n| 1 | 2 |\n", "c");
    match &p.blocks[0] {
        Block::Grid { header, rows } => {
            assert_eq!(header.len(), 2);
            assert_eq!(
                rows,
                &vec![vec![
                    vec![Inline::Text { text: "1".into() }],
                    vec![Inline::Text { text: "2".into() }]
                ]]
            );
        }
        b => panic!("{b:?}"),
    }
}

#[test]
fn raw_html_is_found_once_per_block_and_comments_are_not() {
    let body = "Hi <b>there</b>.\n\n<div>\nblock\n</div>\n\n<!-- a note\nover lines -->\n\n\\<i> is text\n";
    let p = parse(body, "one");
    let html: Vec<(String, usize)> = p
        .found
        .iter()
        .filter_map(|f| match f {
            Found::Html { text, at } => Some((text.clone(), *at)),
            _ => None,
        })
        .collect();
    assert_eq!(
        html,
        vec![
            ("<b>".to_owned(), 3),
            ("</b>".to_owned(), 11),
            ("<div>".to_owned(), 18)
        ]
    );
}
